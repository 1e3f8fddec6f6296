import type { Usage } from '../openai-api/chat-completion.ts';
import type { MessageUsage } from './message-object.ts';

/**
 * OpenAI usage → Anthropic usage. OpenAI's `prompt_tokens` counts every input token; Anthropic's `input_tokens`
 * leaves out cache reads and writes, which it reports apart. The gateway's `cost` is kept.
 * @see https://docs.anthropic.com/en/api/messages#response-usage
 */
export function convertUsage(usage: Usage): MessageUsage {
  const cacheReadTokens = usage.prompt_tokens_details?.cached_tokens ?? 0;
  const cacheWriteTokens = usage.prompt_tokens_details?.cache_write_tokens ?? 0;
  const converted: MessageUsage = {
    input_tokens: Math.max(0, usage.prompt_tokens - cacheReadTokens - cacheWriteTokens),
    output_tokens: usage.completion_tokens,
    cache_creation_input_tokens: cacheWriteTokens,
    cache_read_input_tokens: cacheReadTokens,
  };
  if (usage.cost !== undefined) converted.cost = usage.cost;
  return converted;
}
