import type { AnswerPlan } from '../shared/plan-answer.ts';

/** OpenAI's `CompletionUsage` (docs/reference/openai.md §Chat Completions): completion tokens include reasoning tokens. */
export function formatChatUsage(plan: AnswerPlan): Record<string, unknown> {
  const { usage } = plan;
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheReadTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** The three required fields only, for vendors that report no details. */
export function formatBasicChatUsage(plan: AnswerPlan): Record<string, unknown> {
  const { usage } = plan;
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}
