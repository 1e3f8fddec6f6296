import { InvalidRequestError } from '../../errors/invalid-request-error.ts';
import type { ChatRequest } from '../../openai-api/chat-request.ts';
import type { UpstreamTarget } from '../provider-adapter.ts';
import { readMaxOutputTokens } from '../shared/max-output-tokens.ts';
import { reasoningBudgetTokens } from '../shared/reasoning-budget.ts';
import {
  isPresent,
  nonStandardServiceTier,
  openAiOnlyParameters,
  penaltyParameters,
  refuseUnsupportedParameters,
  type UnsupportedParameter,
} from '../shared/refuse-unsupported-parameters.ts';
import type { AnthropicRequest } from './anthropic-api.ts';
import { convertMessages } from './convert-messages.ts';
import { convertToolChoice, convertTools } from './convert-tools.ts';
import { readCacheControl } from './read-cache-control.ts';

/**
 * The output limit when neither the client nor the catalogue sets one (Anthropic requires `max_tokens`): 4096 is the
 * smallest output limit among Claude models, so every model accepts it.
 */
export const fallbackMaxTokens = 4096;

/** Anthropic's smallest thinking budget; the budget must also stay below `max_tokens`. */
const minimumThinkingBudget = 1024;

const anthropicUnsupportedParameters: readonly UnsupportedParameter[] = [
  ...openAiOnlyParameters,
  ...penaltyParameters,
  nonStandardServiceTier,
  { param: 'seed', isUsed: (request) => isPresent(request.seed) },
  {
    param: 'temperature',
    isUsed: (request) => typeof request.temperature === 'number' && request.temperature > 1,
    message: 'Anthropic models accept a temperature between 0 and 1.',
  },
  {
    param: 'temperature',
    isUsed: (request) =>
      isThinkingRequested(request) && typeof request.temperature === 'number' && request.temperature !== 1,
    message: 'With reasoning_effort, Anthropic models accept only temperature 1.',
  },
  {
    param: 'response_format',
    isUsed: (request) => request.response_format?.type === 'json_object',
    message: "Anthropic models support response_format 'json_schema' (with a schema), not 'json_object'.",
  },
];

/**
 * ChatRequest → Anthropic Messages request (mapping table, docs/reference/mapping.md). Parameters Anthropic cannot honour are
 * refused with a 400 naming them; `user` (or `safety_identifier`) becomes `metadata.user_id`; `reasoning_effort`
 * becomes a thinking budget; `service_tier` `default` becomes `standard_only`; `cache_control` breakpoints on parts
 * and tools are kept. `store` and `prompt_cache_key` are ignored: Anthropic has no equivalent and they do not change
 * the answer (caching follows the breakpoints).
 * @see https://docs.anthropic.com/en/api/messages
 */
export function convertRequest(input: {
  request: ChatRequest;
  target: UpstreamTarget;
  isStreaming: boolean;
}): AnthropicRequest {
  const { request, target } = input;
  refuseUnsupportedParameters({ request, vendorName: 'Anthropic', parameters: anthropicUnsupportedParameters });
  const maxTokens = readMaxOutputTokens(request) ?? target.defaultMaxOutputTokens ?? fallbackMaxTokens;
  const { system, messages } = convertMessages(request.messages, { isThinkingEnabled: isThinkingRequested(request) });
  const body: AnthropicRequest = { model: target.upstreamModel, max_tokens: maxTokens, messages };
  if (system.length > 0) body.system = system;
  if (input.isStreaming) body.stream = true;
  if (typeof request.temperature === 'number') body.temperature = request.temperature;
  if (typeof request.top_p === 'number') body.top_p = request.top_p;
  if (typeof request.stop === 'string') body.stop_sequences = [request.stop];
  else if (Array.isArray(request.stop)) body.stop_sequences = request.stop;
  const tools = convertTools(request.tools);
  if (tools !== undefined) body.tools = tools;
  const toolChoice = convertToolChoice(request);
  if (toolChoice !== undefined) body.tool_choice = toolChoice;
  const userId = request.user ?? request['safety_identifier'];
  if (typeof userId === 'string') body.metadata = { user_id: userId };
  Object.assign(body, readCacheControl(request, ''));
  const serviceTier = request['service_tier'];
  // OpenAI's standard tier is Anthropic's `standard_only`; `auto` means the same on both (a faster tier if the
  // account has one). Other tiers were refused above.
  if (serviceTier === 'default') body.service_tier = 'standard_only';
  else if (serviceTier === 'auto') body.service_tier = 'auto';
  const thinking = convertThinking(request.reasoning_effort, maxTokens);
  if (thinking !== undefined) body.thinking = thinking;
  const format = request.response_format;
  if (format?.type === 'json_schema') {
    body.output_config = { format: { type: 'json_schema', schema: requireSchema(format) } };
  }
  return body;
}

function isThinkingRequested(request: ChatRequest): boolean {
  return isPresent(request.reasoning_effort) && request.reasoning_effort !== 'none';
}

/**
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking
 */
function convertThinking(
  effort: ChatRequest['reasoning_effort'],
  maxTokens: number,
): AnthropicRequest['thinking'] | undefined {
  if (effort === null || effort === undefined) return undefined;
  if (effort === 'none') return { type: 'disabled' };
  const budget = Math.min(reasoningBudgetTokens[effort], maxTokens - 1);
  if (budget < minimumThinkingBudget) {
    throw new InvalidRequestError(
      `reasoning_effort needs an output limit above ${minimumThinkingBudget} tokens on Anthropic models.`,
      { param: 'max_tokens' },
    );
  }
  return { type: 'enabled', budget_tokens: budget };
}

function requireSchema(
  format: Extract<NonNullable<ChatRequest['response_format']>, { type: 'json_schema' }>,
): Record<string, unknown> {
  if (format.json_schema.schema === undefined) {
    throw new InvalidRequestError('Anthropic models need a JSON schema for structured output.', {
      param: 'response_format.json_schema.schema',
    });
  }
  return format.json_schema.schema;
}
