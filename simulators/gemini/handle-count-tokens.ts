import { countInputTokens } from '../shared/count-input-tokens.ts';
import { readJsonBody } from '../shared/read-json-body.ts';
import { sendError, sendJson } from '../shared/send-response.ts';
import { createSimError, type SimError } from '../shared/sim-error.ts';
import type { SimulatorExchange } from '../shared/simulator-exchange.ts';
import { checkGeminiRequest } from './check-gemini-request.ts';
import { convertGenerateContentRequest } from './convert-generate-content-request.ts';
import { checkGenerateContentBody } from './handle-generate-content.ts';
import { renderGeminiError } from './render-gemini-error.ts';

/**
 * `models/{model}:countTokens`: `{contents}` or a whole `{generateContentRequest: {model, contents,
 * systemInstruction, tools, …}}`, answered `{"totalTokens": N}` with the `promptTokenCount` a generateContent call
 * with the same input reports.
 * @see https://ai.google.dev/api/tokens#method:-models.counttokens
 */
export async function handleCountTokens(exchange: SimulatorExchange, input: { model: string }): Promise<void> {
  const reject = (error: SimError) => sendError(exchange, renderGeminiError(error, exchange), exchange.pathFaults);
  const body = await readJsonBody(exchange.request);
  if (!body.isValid || typeof body.value !== 'object' || body.value === null) {
    return reject(createSimError(400, 'Invalid JSON payload received.'));
  }
  const fields = body.value as { contents?: unknown; generateContentRequest?: unknown };
  if ((fields.contents === undefined) === (fields.generateContentRequest === undefined)) {
    return reject(createSimError(400, 'Exactly one of contents or generateContentRequest must be set.'));
  }
  const generateRequest =
    fields.generateContentRequest === undefined ? { contents: fields.contents } : fields.generateContentRequest;
  const { model: _model, ...requestFields } = (generateRequest ?? {}) as Record<string, unknown>;
  const parsed = checkGenerateContentBody(requestFields);
  if (!parsed.isValid) return reject(parsed.error);
  const requestError = checkGeminiRequest(parsed.value, input.model);
  if (requestError) return reject(requestError);
  const { conversation } = convertGenerateContentRequest(parsed.value, input.model);
  const totalTokens = countInputTokens(conversation.units);
  return sendJson(exchange, { status: 200, headers: {}, body: { totalTokens }, faults: exchange.pathFaults });
}
