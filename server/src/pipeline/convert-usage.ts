import type { TokenUsage } from '../billing/pricing.ts';
import type { Usage } from '../openai-api/chat-completion.ts';

export function fromWireUsage(usage: Usage): TokenUsage {
  return {
    inputTokens: usage.prompt_tokens,
    cachedInputTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
    outputTokens: usage.completion_tokens,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

/** The wire usage object with every detail OpenAI clients read, plus the cost the ledger debited. */
export function toWireUsage(usage: TokenUsage, costUsd: number): Usage {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    cost: costUsd,
  };
}
