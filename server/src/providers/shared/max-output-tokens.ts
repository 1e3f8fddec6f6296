import type { ChatRequest } from '../../openai-api/chat-request.ts';

/**
 * The client's output-token limit: `max_completion_tokens` and the deprecated `max_tokens` mean the same limit, so
 * when both are set the smaller one is honoured.
 */
export function readMaxOutputTokens(request: ChatRequest): number | undefined {
  const limits = [request.max_completion_tokens, request.max_tokens].filter((limit) => typeof limit === 'number');
  return limits.length === 0 ? undefined : Math.min(...limits);
}
