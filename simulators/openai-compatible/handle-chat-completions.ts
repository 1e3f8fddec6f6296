import { findFaultDirectives, mergeFaults } from '../shared/fault-spec.ts';
import { describeSchemaIssue } from '../shared/describe-schema-issue.ts';
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
import { buildChatChunks } from './build-chat-chunks.ts';
import { buildChatCompletion } from './build-chat-completion.ts';
import { chatRequestSchema, type ChatRequest } from './chat-request-schema.ts';
import { convertChatRequest } from './convert-chat-request.ts';
import type { DialectQuirks, StreamContext } from './dialect-quirks.ts';
import { planChoices } from './plan-choices.ts';
import { renderDialectError } from './render-dialect-error.ts';

/**
 * `POST …/chat/completions` for every OpenAI-dialect vendor: parse, check, plan, render with the vendor's quirks.
 * `model` is the model the URL names (Azure's deployment): the body's `model` is then optional and ignored. `body` is a
 * chat request another endpoint made of its own (Mistral's fill-in-the-middle): the exchange's body is then not read.
 */
export async function handleChatCompletions(
  exchange: SimulatorExchange,
  quirks: DialectQuirks,
  options: { model?: string; body?: Record<string, unknown> } = {},
): Promise<void> {
  const reject = (error: SimError) =>
    sendError(exchange, renderDialectError(error, exchange, quirks), exchange.pathFaults);
  const parsed = await parseChatRequest(exchange, options.model, options.body);
  if (!parsed.isValid) return reject(parsed.error);
  const request = parsed.value;
  const vendorError = quirks.findRequestError(request);
  if (vendorError) return reject(vendorError);
  const conversation = convertChatRequest(request, quirks);
  if ('status' in conversation) return reject(conversation);
  const faults = mergeFaults(findFaultDirectives(conversation.lastUserText), exchange.pathFaults);
  if (faults.isReset) return dropConnection(exchange);
  if (faults.status !== undefined) {
    return sendError(
      exchange,
      renderDialectError(createFaultError(faults.status, faults.retryAfterSeconds), exchange, quirks),
      faults,
    );
  }
  const { choices, usage } = planChoices({ exchange, quirks, conversation, faults, choiceCount: request.n ?? 1 });
  const first = choices[0]!;
  const context: StreamContext = {
    plan: { ...first.plan, usage },
    choices,
    completionId: quirks.createCompletionId(exchange.ids, exchange.requestId),
    createdUnixSeconds: exchange.state.nowUnixSeconds(),
    model: quirks.snapshotModel(request.model),
    requestId: exchange.requestId,
    request,
    toolCallIds: first.toolCallIds,
  };
  const headers = quirks.requestIdHeaders(exchange.requestId);
  if (request.stream !== true) {
    return sendJson(exchange, { status: 200, headers, body: buildChatCompletion(context, quirks), faults });
  }
  const midStreamError = createSimError(
    500,
    'The server had an error while processing your request. Sorry about that!',
  );
  await sendSse(exchange, {
    headers,
    events: buildChatChunks(context, quirks, { isUsageRequested: request.stream_options?.include_usage === true }),
    faults,
    midStreamErrorEvents: () =>
      quirks.midStreamErrorEvents?.(context) ?? [dataEvent(quirks.renderErrorBody(midStreamError))],
  });
}

async function parseChatRequest(
  exchange: SimulatorExchange,
  modelFromUrl: string | undefined,
  madeBody: Record<string, unknown> | undefined,
): Promise<ParseResult<ChatRequest>> {
  const body =
    madeBody === undefined ? await readJsonBody(exchange.request) : { isValid: true as const, value: madeBody };
  if (!body.isValid) {
    return invalidResult(
      body.reason === 'too-large'
        ? createSimError(413, 'Request body too large.')
        : createSimError(400, 'We could not parse the JSON body of your request. The API expects a JSON payload.'),
    );
  }
  if (typeof body.value !== 'object' || body.value === null || Array.isArray(body.value)) {
    return invalidResult(createSimError(400, 'The request body must be a JSON object.', { code: 'invalid_type' }));
  }
  const result = chatRequestSchema.safeParse(
    modelFromUrl === undefined ? body.value : { ...body.value, model: modelFromUrl },
  );
  if (!result.success) {
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
  return { isValid: true, value: result.data };
}
