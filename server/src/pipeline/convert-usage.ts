import type { TokenUsage } from '../billing/pricing.ts';
import type { Usage } from '../openai-api/chat-completion.ts';

export function fromWireUsage(usage: Usage): TokenUsage {
  return {
    inputTokens: usage.prompt_tokens,
    cachedInputTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
    cacheWriteInputTokens: usage.prompt_tokens_details?.cache_write_tokens ?? 0,
    outputTokens: usage.completion_tokens,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
  };
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
