import type { AnswerPlan } from '../../shared/plan-answer.ts';
import { alphanumeric } from '../../shared/random.ts';
import { baseQuirks } from '../base-quirks.ts';
import type { DialectQuirks } from '../dialect-quirks.ts';
import { formatBasicChatUsage } from '../format-chat-usage.ts';
import { localReasoningFor } from './local-reasoning.ts';

const llamaCppErrorTypes: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  501: 'not_supported_error',
  503: 'unavailable_error',
};

/**
 * llama.cpp server (docs/reference/openai-compatible-vendors.md): no key unless configured, `reasoning_content`, a `timings` object on the last
 * chunk and on completions, and errors `{"error": {"code": <int>, "message", "type"}}`.
 */
export const llamaCppQuirks: DialectQuirks = {
  ...baseQuirks,
  vendor: 'llamacpp',
  isKeyRequired: false,
  modelIds: ['gpt-3.5-turbo'],
  createCompletionId: (ids) => `chatcmpl-${ids.nextString(alphanumeric, 32)}`,
  createToolCallId: (ids) => ids.nextString(alphanumeric, 32),
  reasoningFor: localReasoningFor,
  reasoningField: 'reasoning_content',
  formatUsage: formatBasicChatUsage,
  renderErrorBody: (error) => ({
    error: {
      code: error.status,
      message: error.message,
      type: error.vendorType ?? llamaCppErrorTypes[error.status] ?? 'server_error',
    },
  }),
  decorateChunk: (chunk, position, context) => {
    if (position === 'finish') chunk['timings'] = buildTimings(context.plan);
  },
  decorateCompletion: (completion, context) => {
    completion['timings'] = buildTimings(context.plan);
  },
};

function buildTimings(plan: AnswerPlan): Record<string, number> {
  const promptMs = plan.usage.inputTokens * 0.5;
  const predictedMs = plan.usage.outputTokens * 20;
  return {
    prompt_n: plan.usage.inputTokens,
    prompt_ms: promptMs,
    prompt_per_token_ms: 0.5,
    prompt_per_second: 2000,
    predicted_n: plan.usage.outputTokens,
    predicted_ms: predictedMs,
    predicted_per_token_ms: 20,
    predicted_per_second: 50,
  };
}
