import { describeSchemaIssue } from '../shared/describe-schema-issue.ts';
import { findFaultDirectives, mergeFaults } from '../shared/fault-spec.ts';
import { planAnswer } from '../shared/plan-answer.ts';
import { lowerHex } from '../shared/random.ts';
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
import { renderDialectError } from '../openai-compatible/render-dialect-error.ts';
import { buildResponseEvents } from './build-response-events.ts';
import { buildResponseObject, type ResponseContext } from './build-response-object.ts';
import { convertResponsesRequest } from './convert-responses-request.ts';
import { snapshotOpenAiModel } from './openai-reasoning.ts';
import { openAiQuirks } from './openai-quirks.ts';
import { planResponseItems, renderFinalItem } from './plan-response-items.ts';
import { responsesRequestSchema, type ResponsesRequest } from './responses-request-schema.ts';

/** `POST /v1/responses` (docs/reference/openai.md §Responses), streamed and not. Only response ids are remembered, never content. */
export async function handleResponses(exchange: SimulatorExchange): Promise<void> {
  const reject = (error: SimError) =>
    sendError(exchange, renderDialectError(error, exchange, openAiQuirks), exchange.pathFaults);
  const parsed = await parseResponsesRequest(exchange);
  if (!parsed.isValid) return reject(parsed.error);
  const request = parsed.value;
  const { issuedResponseIds } = exchange.state;
  const conversation = convertResponsesRequest(request, { isKnownResponseId: (id) => issuedResponseIds.has(id) });
  if ('status' in conversation) return reject(conversation);
  const faults = mergeFaults(findFaultDirectives(conversation.lastUserText), exchange.pathFaults);
  if (faults.isReset) return dropConnection(exchange);
  if (faults.status !== undefined) {
    const error = createFaultError(faults.status, faults.retryAfterSeconds);
    return sendError(exchange, renderDialectError(error, exchange, openAiQuirks), faults);
  }
  const plan = planAnswer({
    conversation,
    faults,
    namespace: 'openai',
    promptCache: exchange.state.promptCache,
    cachePolicy: openAiQuirks.cachePolicy,
    hasTextBeforeAutoToolCall: false,
  });
  const context: ResponseContext = {
    plan,
    request,
    responseId: `resp_${exchange.ids.nextString(lowerHex, 48)}`,
    model: snapshotOpenAiModel(request.model),
    createdAtUnixSeconds: exchange.state.nowUnixSeconds(),
  };
  if (request.store !== false) issuedResponseIds.add(context.responseId);
  const items = planResponseItems(plan, {
    ids: exchange.ids,
    hasReasoningSummary: Boolean(request.reasoning?.summary),
    include: request.include ?? [],
  });
  const headers = openAiQuirks.requestIdHeaders(exchange.requestId);
  if (request.stream !== true) {
    const status = plan.finishReason === 'length' ? 'incomplete' : 'completed';
    const body = buildResponseObject(context, { status, output: items.map(renderFinalItem) });
    return sendJson(exchange, { status: 200, headers, body, faults });
  }
  await sendSse(exchange, {
    headers,
    events: buildResponseEvents(context, items),
    faults,
    midStreamErrorEvents: (sequenceNumber) => [
      dataEvent(
        {
          type: 'error',
          code: 'server_error',
          message: 'The server had an error while processing your request. Sorry about that!',
          param: null,
          sequence_number: sequenceNumber,
        },
        'error',
      ),
    ],
  });
}

async function parseResponsesRequest(exchange: SimulatorExchange): Promise<ParseResult<ResponsesRequest>> {
  const body = await readJsonBody(exchange.request);
  if (!body.isValid) {
    return invalidResult(
      createSimError(400, 'We could not parse the JSON body of your request. The API expects a JSON payload.'),
    );
  }
  const result = responsesRequestSchema.safeParse(body.value);
  if (result.success) return { isValid: true, value: result.data };
  const issue = describeSchemaIssue(result.error, 'brackets');
  const message = issue.isMissing
    ? `Missing required parameter: '${issue.path}'.`
    : `Invalid value for '${issue.path}': ${issue.detail}.`;
  return invalidResult(
    createSimError(400, message, {
      param: issue.path,
      code: issue.isMissing ? 'missing_required_parameter' : 'invalid_value',
    }),
  );
}
