import type { Usage } from '../../openai-api/chat-completion.ts';
import type { OpenAiUsage } from './openai-api.ts';

/**
 * OpenAI-dialect usage → the canonical Usage. `completion_tokens` must include reasoning tokens (OpenAI's rule);
 * a vendor whose total shows it counted them apart (total = prompt + completion + reasoning) has them added back,
 * so reasoning is billed as output.
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage
 */
export function convertOpenAiUsage(usage: OpenAiUsage): Usage {
  const promptTokens = usage.prompt_tokens ?? 0;
  const reasoningTokens = usage.completion_tokens_details?.reasoning_tokens ?? 0;
  const reportedCompletionTokens = usage.completion_tokens ?? 0;
  const isReasoningApart =
    reasoningTokens > 0 && usage.total_tokens === promptTokens + reportedCompletionTokens + reasoningTokens;
  const completionTokens = reportedCompletionTokens + (isReasoningApart ? reasoningTokens : 0);
  const cacheWriteTokens = usage.prompt_tokens_details?.cache_write_tokens;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: {
      cached_tokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
      ...(typeof cacheWriteTokens === 'number' ? { cache_write_tokens: cacheWriteTokens } : {}),
    },
    completion_tokens_details: { reasoning_tokens: reasoningTokens },
  };
}
