import type { TokenUsage } from '../billing/pricing.ts';
import type { Usage } from '../openai-api/chat-completion.ts';

/**
 * Every vendor's usage reaches billing through here. Counts are the vendor's, but a count that is not a whole number
 * of tokens (negative, fractional, not finite) would price a call below zero or break the integer ledger and usage
 * row; such a count is read as the nearest whole count that cannot under-bill: negatives and garbage as 0, fractions
 * rounded up.
 */
export function fromWireUsage(usage: Usage): TokenUsage {
  return {
    inputTokens: toTokenCount(usage.prompt_tokens),
    cachedInputTokens: toTokenCount(usage.prompt_tokens_details?.cached_tokens),
    cacheWriteInputTokens: toTokenCount(usage.prompt_tokens_details?.cache_write_tokens),
    outputTokens: toTokenCount(usage.completion_tokens),
    reasoningTokens: toTokenCount(usage.completion_tokens_details?.reasoning_tokens),
  };
}

function toTokenCount(count: number | null | undefined): number {
  return typeof count === 'number' && Number.isFinite(count) && count > 0 ? Math.ceil(count) : 0;
}

/**
 * The wire usage object with every detail OpenAI clients read, plus the cost the ledger debited. Prompt-cache writes,
 * which cost more than input at some vendors, are shown as OpenRouter shows them (`cache_write_tokens`) when there
 * were any; /v1/messages turns them into Anthropic's `cache_creation_input_tokens`.
 */
export function toWireUsage(usage: TokenUsage, costUsd: number): Usage {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: {
      cached_tokens: usage.cachedInputTokens,
      ...(usage.cacheWriteInputTokens > 0 ? { cache_write_tokens: usage.cacheWriteInputTokens } : {}),
    },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    cost: costUsd,
  };
}
