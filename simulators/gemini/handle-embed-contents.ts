import { z } from 'zod';
import { countTextTokens } from '../shared/count-input-tokens.ts';
import { embedText, findEmbeddingProfile } from '../shared/embed-text.ts';
import { readJsonBody } from '../shared/read-json-body.ts';
import { sendError, sendJson } from '../shared/send-response.ts';
import { createSimError, type SimError } from '../shared/sim-error.ts';
import type { SimulatorExchange } from '../shared/simulator-exchange.ts';
import { renderGeminiError } from './render-gemini-error.ts';

const contentSchema = z.looseObject({ parts: z.array(z.looseObject({ text: z.string() })).min(1) });
const embedRequestSchema = z.looseObject({
  model: z.string().optional(),
  content: contentSchema,
  outputDimensionality: z.number().int().min(1).optional(),
});
const batchSchema = z.looseObject({ requests: z.array(embedRequestSchema).min(1) });

/**
 * `models/{model}:embedContent` and `:batchEmbedContents`: one deterministic unit vector per request, of the model's
 * size or `outputDimensionality`. Like Google: no token counts in the answer; a text over the model's input limit or a
 * model that does not embed is a 400 INVALID_ARGUMENT.
 * @see https://ai.google.dev/api/embeddings
 */
export async function handleEmbedContents(
  exchange: SimulatorExchange,
  call: { model: string; isBatch: boolean },
): Promise<void> {
  const reject = (error: SimError) => sendError(exchange, renderGeminiError(error, exchange), exchange.pathFaults);
  const body = await readJsonBody(exchange.request);
  const value = body.isValid ? body.value : undefined;
  const parsed = call.isBatch
    ? batchSchema.safeParse(value)
    : embedRequestSchema.transform((request) => ({ requests: [request] })).safeParse(value);
  if (!parsed.success) return reject(createSimError(400, 'Invalid JSON payload received.'));
  const { requests } = parsed.data;
  const profile = findEmbeddingProfile(call.model);
  if (!profile) return reject(createSimError(400, `models/${call.model} is not found for embedContent.`));
  const embeddings: Array<{ values: number[] }> = [];
  for (const request of requests) {
    const text = request.content.parts.map((part) => part.text).join('');
    if (countTextTokens(text) > profile.maxInputTokens) {
      return reject(
        createSimError(
          400,
          `The input token count exceeds the maximum number of tokens allowed ${profile.maxInputTokens}.`,
        ),
      );
    }
    const dimensions = Math.min(request.outputDimensionality ?? profile.dimensions, profile.dimensions);
    embeddings.push({ values: embedText({ model: call.model, text, dimensions }) });
  }
  const answer = call.isBatch ? { embeddings } : { embedding: embeddings[0] };
  return sendJson(exchange, { status: 200, headers: {}, body: answer, faults: exchange.pathFaults });
}
