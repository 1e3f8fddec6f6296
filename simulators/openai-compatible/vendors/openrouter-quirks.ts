import { reasoningForEffort } from '../../shared/conversation.ts';
import type { AnswerPlan } from '../../shared/plan-answer.ts';
import { alphanumeric } from '../../shared/random.ts';
import { dataEvent } from '../../shared/send-response.ts';
import type { SimError } from '../../shared/sim-error.ts';
import { baseQuirks } from '../base-quirks.ts';
import type { DialectQuirks, StreamContext } from '../dialect-quirks.ts';
import { formatChatUsage } from '../format-chat-usage.ts';

// Simulated list prices, USD per token, so `usage.cost` is realistic and reproducible.
const inputUsdPerToken = 1 / 1_000_000;
const outputUsdPerToken = 2 / 1_000_000;

/**
 * OpenRouter (docs/reference/openrouter.md): `gen-` ids echoed in `X-Generation-Id`, a `provider` field, usage with `cost`
 * always in the final chunk, `: OPENROUTER PROCESSING` comments, `{"error": {"code": <int>, "message"}}` bodies, and
 * mid-stream errors as a chunk with `finish_reason: "error"`.
 */
export const openRouterQuirks: DialectQuirks = {
  ...baseQuirks,
  vendor: 'openrouter',
  apiRoots: ['/api/v1'],
  modelIds: ['qwen/qwen3-coder', 'qwen/qwen3-max', 'openai/gpt-4o', 'anthropic/claude-sonnet-4.5'],
  createRequestId: (ids) => `gen-${1_700_000_000 + ids.nextInt(100_000_000)}-${ids.nextString(alphanumeric, 20)}`,
  requestIdHeaders: (requestId) => ({ 'x-generation-id': requestId }),
  createCompletionId: (_ids, requestId) => requestId,
  cachePolicy: { kind: 'automatic', minimumTokens: 1024, granularityTokens: 1 },
  reasoningFor: (request) => {
    const reasoning = request.reasoning;
    const isRequested =
      (reasoning !== undefined && reasoning !== null && reasoning.enabled !== false) ||
      Boolean(request.reasoning_effort) ||
      request['include_reasoning'] === true;
    return isRequested ? reasoningForEffort(reasoning?.effort ?? request.reasoning_effort ?? 'medium') : undefined;
  },
  reasoningField: 'reasoning',
  renderErrorBody: renderOpenRouterErrorBody,
  midStreamErrorEvents: (context) => [
    dataEvent({
      ...chunkEnvelope(context),
      error: { code: 502, message: 'Provider returned error', metadata: { error_type: 'provider_unavailable' } },
      choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
    }),
  ],
  isStreamUsageAlwaysSent: true,
  keepAliveComments: ['OPENROUTER PROCESSING'],
  formatUsage: formatOpenRouterUsage,
  decorateChunk: (chunk, position, context) => {
    chunk['provider'] = providerName(context.request.model);
    if (position === 'finish') addNativeFinishReason(chunk);
  },
  decorateCompletion: (completion, context) => {
    completion['provider'] = providerName(context.request.model);
    addNativeFinishReason(completion);
  },
};

function renderOpenRouterErrorBody(error: SimError): unknown {
  const errorType =
    error.status === 429 ? 'rate_limit_exceeded' : error.status >= 500 ? 'provider_unavailable' : undefined;
  return {
    error: {
      code: error.status,
      message: error.message,
      ...(errorType === undefined ? {} : { metadata: { error_type: errorType } }),
    },
  };
}

function formatOpenRouterUsage(plan: AnswerPlan): Record<string, unknown> {
  const base = formatChatUsage(plan);
  const promptCost = plan.usage.inputTokens * inputUsdPerToken;
  const completionCost = plan.usage.outputTokens * outputUsdPerToken;
  return {
    ...base,
    prompt_tokens_details: { cached_tokens: plan.usage.cacheReadTokens, cache_write_tokens: 0, audio_tokens: 0 },
    cost: roundUsd(promptCost + completionCost),
    is_byok: false,
    cost_details: {
      upstream_inference_cost: null,
      upstream_inference_prompt_cost: roundUsd(promptCost),
      upstream_inference_completions_cost: roundUsd(completionCost),
    },
  };
}

function roundUsd(value: number): number {
  return Math.round(value * 1e9) / 1e9;
}

/** `qwen/qwen3-coder` is served by "Qwen": the author part, capitalised. */
function providerName(model: string): string {
  const author = model.split('/')[0] ?? model;
  return author === 'openai' ? 'OpenAI' : author.charAt(0).toUpperCase() + author.slice(1);
}

function addNativeFinishReason(body: Record<string, unknown>): void {
  const choices = body['choices'];
  if (!Array.isArray(choices)) return;
  for (const choice of choices as Record<string, unknown>[]) choice['native_finish_reason'] = choice['finish_reason'];
}

function chunkEnvelope(context: StreamContext): Record<string, unknown> {
  return {
    id: context.completionId,
    object: 'chat.completion.chunk',
    created: context.createdUnixSeconds,
    model: context.model,
    provider: providerName(context.request.model),
  };
}
