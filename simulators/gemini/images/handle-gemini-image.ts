import { z } from 'zod';
import { renderGeminiError } from '../render-gemini-error.ts';
import { countTextTokens } from '../../shared/count-input-tokens.ts';
import { findFaultDirectives, mergeFaults } from '../../shared/fault-spec.ts';
import { generateWordTokens } from '../../shared/generate-words.ts';
import { createRandom, hashText } from '../../shared/random.ts';
import { readJsonBody } from '../../shared/read-json-body.ts';
import { dropConnection, sendError, sendJson } from '../../shared/send-response.ts';
import { createFaultError, createSimError, type SimError } from '../../shared/sim-error.ts';
import type { SimulatorExchange } from '../../shared/simulator-exchange.ts';
import { renderSampleImage } from '../../images/render-sample-image.ts';
import { geminiImageOutputTokens, geminiImageSizes } from './google-image-sizes.ts';

const imageRequestSchema = z.looseObject({
  contents: z
    .array(
      z.looseObject({ role: z.string().optional(), parts: z.array(z.looseObject({ text: z.string().optional() })) }),
    )
    .min(1),
  generationConfig: z
    .looseObject({
      responseModalities: z.array(z.enum(['TEXT', 'IMAGE'])).optional(),
      imageConfig: z.looseObject({ aspectRatio: z.string().optional() }).optional(),
    })
    .optional(),
});

/**
 * `:generateContent` of a Gemini image model: one image as an `inlineData` part (a short text part first when
 * `responseModalities` includes TEXT), 1290 output tokens. `[sim:refusal]` answers like a blocked prompt:
 * `promptFeedback.blockReason` and no candidates.
 * @see https://ai.google.dev/gemini-api/docs/image-generation
 */
export async function handleGeminiImage(exchange: SimulatorExchange, input: { model: string }): Promise<void> {
  const reject = (error: SimError) => sendError(exchange, renderGeminiError(error, exchange), exchange.pathFaults);
  const body = await readJsonBody(exchange.request);
  if (!body.isValid) return reject(createSimError(400, 'Invalid JSON payload received.'));
  const parsed = imageRequestSchema.safeParse(body.value);
  if (!parsed.success)
    return reject(createSimError(400, '* GenerateContentRequest.contents: contents is not specified'));
  const request = parsed.data;
  const prompt = request.contents
    .flatMap((content) => content.parts)
    .map((part) => part.text ?? '')
    .join('\n');
  const aspectRatio = request.generationConfig?.imageConfig?.aspectRatio ?? '1:1';
  const size = geminiImageSizes[aspectRatio];
  if (!size) return reject(createSimError(400, `Unsupported aspect ratio: ${aspectRatio}.`));
  const modalities = request.generationConfig?.responseModalities ?? ['TEXT', 'IMAGE'];
  if (!modalities.includes('IMAGE')) {
    return reject(createSimError(400, 'This model only supports responseModalities that include IMAGE.'));
  }
  const faults = mergeFaults(findFaultDirectives(prompt), exchange.pathFaults);
  if (faults.isReset) return dropConnection(exchange);
  if (faults.status !== undefined) {
    const error = createFaultError(faults.status, faults.retryAfterSeconds);
    return sendError(exchange, renderGeminiError(error, exchange), faults);
  }
  const promptTokens = countTextTokens(prompt);
  const common = { modelVersion: input.model, responseId: exchange.requestId };
  if (faults.isRefusal) {
    const usageMetadata = { promptTokenCount: promptTokens, totalTokenCount: promptTokens };
    const refusal = { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata, ...common };
    return sendJson(exchange, { status: 200, headers: {}, body: refusal, faults });
  }
  const seed = hashText(`gemini\u0000${input.model}\u0000${prompt}`);
  const image = renderSampleImage({ seed, width: size[0], height: size[1] });
  const parts: Record<string, unknown>[] = [];
  if (modalities.includes('TEXT')) parts.push({ text: generateWordTokens(createRandom(seed), 8).join('') });
  parts.push({ inlineData: { mimeType: 'image/png', data: image.toString('base64') } });
  const answer = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: promptTokens,
      candidatesTokenCount: geminiImageOutputTokens,
      totalTokenCount: promptTokens + geminiImageOutputTokens,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokens }],
      candidatesTokensDetails: [{ modality: 'IMAGE', tokenCount: geminiImageOutputTokens }],
    },
    ...common,
  };
  await sendJson(exchange, { status: 200, headers: {}, body: answer, faults });
}
