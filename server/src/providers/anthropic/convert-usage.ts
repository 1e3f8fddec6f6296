import type { Usage } from '../../openai-api/chat-completion.ts';
import type { AnthropicUsage } from './anthropic-api.ts';

/**
 * Anthropic usage → Usage. Anthropic's `input_tokens` excludes cached tokens, so the prompt is input + cache reads +
 * cache writes; cache reads are OpenAI's `cached_tokens`, cache writes `cache_write_tokens`. `output_tokens`
 * includes thinking.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching#tracking-cache-performance
 */
export function convertAnthropicUsage(usage: AnthropicUsage): Usage {
  const cacheReadTokens = usage.cache_read_input_tokens ?? 0;
  const cacheWriteTokens = usage.cache_creation_input_tokens ?? 0;
  const promptTokens = (usage.input_tokens ?? 0) + cacheReadTokens + cacheWriteTokens;
  const completionTokens = usage.output_tokens ?? 0;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: cacheReadTokens, cache_write_tokens: cacheWriteTokens },
    completion_tokens_details: { reasoning_tokens: usage.output_tokens_details?.thinking_tokens ?? 0 },
  };
}

/** Stream usage: `message_delta.usage` is cumulative and overrides the counts `message_start` gave. */
export function mergeAnthropicUsage(earlier: AnthropicUsage, later: AnthropicUsage): AnthropicUsage {
  const merged: AnthropicUsage = { ...earlier };
  for (const [field, value] of Object.entries(later)) {
    if (value !== null && value !== undefined) merged[field] = value;
  }
  return merged;
}
