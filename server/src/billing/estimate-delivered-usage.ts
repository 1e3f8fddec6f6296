import type { TokenUsage } from './pricing.ts';

/** Bytes per token used when a vendor's own count is missing: the usual average for English text and code. */
const bytesPerToken = 4;
const framingTokensPerMessage = 4;
const tokensPerImage = 765;

/**
 * The usage of a call that was cut before the vendor reported its own count (the client left, or the stream broke):
 * the input estimated from its size, the output from the text that actually reached the client. Rounded up; never
 * above the hold, because the capture is capped by it.
 */
export function estimateDeliveredUsage(input: {
  textBytes: number;
  messageCount: number;
  imageCount: number;
  deliveredTextBytes: number;
}): TokenUsage {
  return {
    inputTokens:
      Math.ceil(input.textBytes / bytesPerToken) +
      input.messageCount * framingTokensPerMessage +
      input.imageCount * tokensPerImage,
    cachedInputTokens: 0,
    cacheWriteInputTokens: 0,
    outputTokens: Math.ceil(input.deliveredTextBytes / bytesPerToken),
    reasoningTokens: 0,
  };
}
