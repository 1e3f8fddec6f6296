import type { AnswerPlan } from '../shared/plan-answer.ts';
import type { ResponsesRequest } from './responses-request-schema.ts';

export type ResponseContext = {
  plan: AnswerPlan;
  request: ResponsesRequest;
  responseId: string;
  model: string;
  createdAtUnixSeconds: number;
};

/**
 * The `response` object (docs/reference/openai.md §Responses). `in_progress` has empty output and null usage; `incomplete` says why.
 */
export function buildResponseObject(
  context: ResponseContext,
  input: { status: 'in_progress' | 'completed' | 'incomplete'; output: readonly Record<string, unknown>[] },
): Record<string, unknown> {
  const { plan, request } = context;
  const isFinal = input.status !== 'in_progress';
  return {
    id: context.responseId,
    object: 'response',
    created_at: context.createdAtUnixSeconds,
    status: input.status,
    background: false,
    completed_at: input.status === 'completed' ? context.createdAtUnixSeconds : null,
    error: null,
    incomplete_details: input.status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    max_tool_calls: null,
    model: context.model,
    output: input.output,
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    reasoning: { effort: request.reasoning?.effort ?? null, summary: request.reasoning?.summary ?? null },
    service_tier: 'default',
    store: request.store ?? true,
    temperature: request.temperature ?? 1,
    text: { format: request.text?.format ?? { type: 'text' }, verbosity: request.text?.verbosity ?? 'medium' },
    tool_choice: request.tool_choice ?? 'auto',
    tools: request.tools ?? [],
    top_p: request.top_p ?? 1,
    truncation: 'disabled',
    usage: isFinal ? formatResponseUsage(plan) : null,
    user: null,
    metadata: request.metadata ?? {},
  };
}

/** `ResponseUsage` (docs/reference/openai.md §Responses): output tokens include reasoning tokens. */
function formatResponseUsage(plan: AnswerPlan): Record<string, unknown> {
  const { usage } = plan;
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cacheReadTokens, cache_write_tokens: 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}
