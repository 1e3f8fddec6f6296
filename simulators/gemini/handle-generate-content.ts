import { findFaultDirectives, mergeFaults } from '../shared/fault-spec.ts';
import { planAnswer } from '../shared/plan-answer.ts';
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
import { buildGeminiChunks, buildGeminiResponse, type GeminiContext } from './build-gemini-response.ts';
import { checkGeminiRequest } from './check-gemini-request.ts';
import { convertGenerateContentRequest } from './convert-generate-content-request.ts';
import { findUnknownField } from './find-unknown-field.ts';
import { generateContentSchema, type GenerateContentRequest } from './generate-content-schema.ts';
import { normalizeFieldNames } from './normalize-field-names.ts';
import { renderGeminiError } from './render-gemini-error.ts';

// Gemini's implicit caching starts at 1024 tokens (2.5 Flash) and reports exact counts.
const cachePolicy = { kind: 'automatic', minimumTokens: 1024, granularityTokens: 1 } as const;

/** `:generateContent` and `:streamGenerateContent` (docs/reference/gemini.md). */
export async function handleGenerateContent(
  exchange: SimulatorExchange,
  input: { model: string; isStreaming: boolean },
): Promise<void> {
  const reject = (error: SimError) => sendError(exchange, renderGeminiError(error, exchange), exchange.pathFaults);
  const parsed = await parseGenerateContentRequest(exchange);
  if (!parsed.isValid) return reject(parsed.error);
  const request = parsed.value;
  const requestError = checkGeminiRequest(request, input.model);
  if (requestError) return reject(requestError);
  const { conversation, isIncludingThoughts } = convertGenerateContentRequest(request, input.model);
  const faults = mergeFaults(findFaultDirectives(conversation.lastUserText), exchange.pathFaults);
  if (faults.isReset) return dropConnection(exchange);
  if (faults.status !== undefined) {
    return sendError(
      exchange,
      renderGeminiError(createFaultError(faults.status, faults.retryAfterSeconds), exchange),
      faults,
    );
  }
  const plan = planAnswer({
    conversation,
    faults,
    namespace: 'gemini',
    promptCache: exchange.state.promptCache,
    cachePolicy,
    hasTextBeforeAutoToolCall: false,
  });
  const context: GeminiContext = {
    plan,
    conversation,
    isIncludingThoughts,
    model: input.model,
    responseId: exchange.requestId,
  };
  if (!input.isStreaming)
    return sendJson(exchange, { status: 200, headers: {}, body: buildGeminiResponse(context), faults });
  const chunks = buildGeminiChunks(context);
  // Without `alt=sse` the stream is one JSON array of the same chunks.
  if (exchange.query.get('alt') !== 'sse')
    return sendJson(exchange, { status: 200, headers: {}, body: chunks, faults });
  await sendSse(exchange, {
    headers: {},
    events: chunks.map((chunk) => dataEvent(chunk)),
    faults,
    midStreamErrorEvents: () => [
      dataEvent({
        error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' },
      }),
    ],
  });
}

async function parseGenerateContentRequest(exchange: SimulatorExchange): Promise<ParseResult<GenerateContentRequest>> {
  const body = await readJsonBody(exchange.request);
  if (!body.isValid) {
    return invalidResult(
      body.reason === 'too-large'
        ? createSimError(400, 'Request payload size exceeds the limit.')
        : createSimError(400, 'Invalid JSON payload received. Unexpected token.'),
    );
  }
  return checkGenerateContentBody(body.value);
}

/** A parsed JSON body as a GenerateContentRequest, or Google's 400 (`:countTokens` checks its request with it too). */
export function checkGenerateContentBody(value: unknown): ParseResult<GenerateContentRequest> {
  const unknownField = findUnknownField(value);
  if (unknownField) return invalidResult(createSimError(400, unknownField));
  const result = generateContentSchema.safeParse(normalizeFieldNames(value));
  if (result.success) return { isValid: true, value: result.data };
  const issue = result.error.issues[0];
  const path = (issue?.path ?? []).map(String).join('.');
  return invalidResult(createSimError(400, `Invalid value at '${path}': ${issue?.message ?? 'invalid value'}`));
}
