import { countInputTokens } from '../shared/count-input-tokens.ts';
import { describeSchemaIssue } from '../shared/describe-schema-issue.ts';
import { findFaultDirectives, mergeFaults } from '../shared/fault-spec.ts';
import { planAnswer } from '../shared/plan-answer.ts';
import { alphanumeric } from '../shared/random.ts';
import { readJsonBody } from '../shared/read-json-body.ts';
import { dataEvent, dropConnection, sendError, sendJson, sendSse } from '../shared/send-response.ts';
import {
  createFaultError,
  createSimError,
  invalidResult,
  type ParseResult,
  type SimError,
} from '../shared/sim-error.ts';
import type { SimulatorExchange } from '../shared/simulator-exchange.ts';
import { snapshotAnthropicModel } from './anthropic-format.ts';
import { buildMessage, type MessageContext } from './build-message.ts';
import { buildMessageEvents } from './build-message-events.ts';
import { checkMessagesRequest } from './check-messages-request.ts';
import { convertMessagesRequest, mergeConsecutiveTurns } from './convert-messages-request.ts';
import { messagesRequestSchema, type MessagesRequest } from './messages-request-schema.ts';
import { planMessageBlocks } from './plan-message-blocks.ts';
import { renderAnthropicError } from './render-anthropic-error.ts';

/** `POST /v1/messages` (docs/reference/anthropic.md). */
export async function handleMessages(exchange: SimulatorExchange): Promise<void> {
  const reject = (error: SimError) => sendError(exchange, renderAnthropicError(error, exchange), exchange.pathFaults);
  const parsed = await parseMessagesRequest(exchange);
  if (!parsed.isValid) return reject(parsed.error);
  const request = parsed.value;
  const messages = mergeConsecutiveTurns(request.messages);
  const requestError = checkMessagesRequest(request, messages);
  if (requestError) return reject(requestError);
  const { conversation, cachePolicy, cacheTtl } = convertMessagesRequest(request, messages);
  const faults = mergeFaults(findFaultDirectives(conversation.lastUserText), exchange.pathFaults);
  if (faults.isReset) return dropConnection(exchange);
  if (faults.status !== undefined) {
    return sendError(
      exchange,
      renderAnthropicError(createFaultError(faults.status, faults.retryAfterSeconds), exchange),
      faults,
    );
  }
  const plan = planAnswer({
    conversation,
    faults,
    namespace: 'anthropic',
    promptCache: exchange.state.promptCache,
    cachePolicy,
    hasTextBeforeAutoToolCall: true,
  });
  const context: MessageContext = {
    plan,
    blocks: planMessageBlocks(plan, exchange.ids),
    messageId: `msg_01${exchange.ids.nextString(alphanumeric, 22)}`,
    model: snapshotAnthropicModel(request.model),
    cacheTtl,
  };
  const headers = { 'request-id': exchange.requestId };
  if (request.stream !== true) return sendJson(exchange, { status: 200, headers, body: buildMessage(context), faults });
  await sendSse(exchange, {
    headers,
    events: buildMessageEvents(context),
    faults,
    midStreamErrorEvents: () => [
      dataEvent({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error'),
    ],
  });
}

/**
 * `POST /v1/messages/count_tokens`: the Messages body without `max_tokens`, answered `{"input_tokens": N}` with the
 * count a Messages call with the same input reports.
 * @see https://docs.anthropic.com/en/api/messages-count-tokens
 */
export async function handleCountTokens(exchange: SimulatorExchange): Promise<void> {
  const reject = (error: SimError) => sendError(exchange, renderAnthropicError(error, exchange), exchange.pathFaults);
  const parsed = await parseMessagesRequest(exchange, { maxTokens: 1 });
  if (!parsed.isValid) return reject(parsed.error);
  const messages = mergeConsecutiveTurns(parsed.value.messages);
  const requestError = checkMessagesRequest(parsed.value, messages);
  if (requestError) return reject(requestError);
  const { conversation } = convertMessagesRequest(parsed.value, messages);
  const headers = { 'request-id': exchange.requestId };
  const body = { input_tokens: countInputTokens(conversation.units) };
  return sendJson(exchange, { status: 200, headers, body, faults: exchange.pathFaults });
}

async function parseMessagesRequest(
  exchange: SimulatorExchange,
  defaults: { maxTokens?: number } = {},
): Promise<ParseResult<MessagesRequest>> {
  const body = await readJsonBody(exchange.request);
  if (!body.isValid) {
    return invalidResult(
      body.reason === 'too-large'
        ? createSimError(413, 'Request exceeds the maximum allowed number of bytes.')
        : createSimError(400, 'There was an issue with your request body: it is not valid JSON.'),
    );
  }
  const value =
    defaults.maxTokens !== undefined && typeof body.value === 'object' && body.value !== null
      ? { max_tokens: defaults.maxTokens, ...body.value }
      : body.value;
  const result = messagesRequestSchema.safeParse(value);
  if (result.success) return { isValid: true, value: result.data };
  const issue = describeSchemaIssue(result.error, 'dots');
  return invalidResult(
    createSimError(400, issue.isMissing ? `${issue.path}: Field required` : `${issue.path}: ${issue.detail}`),
  );
}
