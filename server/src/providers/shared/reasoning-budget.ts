import type { ChatRequest } from '../../openai-api/chat-request.ts';

export type ReasoningEffort = NonNullable<ChatRequest['reasoning_effort']>;

/**
 * Thinking-token budgets for vendors that take a budget instead of an effort level (Anthropic `budget_tokens`,
 * Gemini `thinkingBudget`). 1024 is Anthropic's minimum budget; the steps follow the vendors' own examples.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking
 * @see https://ai.google.dev/gemini-api/docs/thinking#set-budget
 */
export const reasoningBudgetTokens = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16_384,
  xhigh: 24_576,
  max: 32_768,
} as const satisfies Record<Exclude<ReasoningEffort, 'none'>, number>;
