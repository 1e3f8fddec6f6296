import { z } from 'zod';
import { renderGeminiError } from '../render-gemini-error.ts';
import { findFaultDirectives, mergeFaults } from '../../shared/fault-spec.ts';
import { hashText } from '../../shared/random.ts';
import { readJsonBody } from '../../shared/read-json-body.ts';
import { dropConnection, sendError, sendJson } from '../../shared/send-response.ts';
import { createFaultError, createSimError, type SimError } from '../../shared/sim-error.ts';
import type { SimulatorExchange } from '../../shared/simulator-exchange.ts';
import { renderSampleImage } from '../../images/render-sample-image.ts';
import { imagenSizes } from './google-image-sizes.ts';

const predictSchema = z.looseObject({
  instances: z.array(z.looseObject({ prompt: z.string().min(1) })).length(1),
  parameters: z
    .looseObject({
      sampleCount: z.number().int().min(1).max(4).optional(),
      aspectRatio: z.string().optional(),
      imageSize: z.enum(['1K', '2K']).optional(),
      includeRaiReason: z.boolean().optional(),
      personGeneration: z.enum(['dont_allow', 'allow_adult', 'allow_all']).optional(),
    })
    .optional(),
});

const filteredReason =
  'Your current safety filter threshold filtered out the prompt. Try rephrasing it or adjusting the threshold.';

/**
 * Imagen `:predict`: `sampleCount` images (default 4) as `predictions[].bytesBase64Encoded`. `[sim:refusal]` filters
 * every image: with `includeRaiReason` each prediction carries only a `raiFilteredReason`, otherwise the answer is
 * empty, as Google's is.
 * @see https://ai.google.dev/gemini-api/docs/imagen
 */
export async function handleImagenPredict(exchange: SimulatorExchange, input: { model: string }): Promise<void> {
  const reject = (error: SimError) => sendError(exchange, renderGeminiError(error, exchange), exchange.pathFaults);
  const body = await readJsonBody(exchange.request);
  if (!body.isValid) return reject(createSimError(400, 'Invalid JSON payload received.'));
  const parsed = predictSchema.safeParse(body.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return reject(createSimError(400, `Invalid value at '${issue?.path.join('.') ?? ''}': ${issue?.message ?? ''}`));
  }
  const prompt = parsed.data.instances[0]?.prompt ?? '';
  const parameters = parsed.data.parameters ?? {};
  const aspectRatio = parameters.aspectRatio ?? '1:1';
  const size = imagenSizes[aspectRatio];
  if (!size) return reject(createSimError(400, `Aspect ratio ${aspectRatio} is not supported.`));
  const faults = mergeFaults(findFaultDirectives(prompt), exchange.pathFaults);
  if (faults.isReset) return dropConnection(exchange);
  if (faults.status !== undefined) {
    const error = createFaultError(faults.status, faults.retryAfterSeconds);
    return sendError(exchange, renderGeminiError(error, exchange), faults);
  }
  const count = parameters.sampleCount ?? 4;
  const scale = parameters.imageSize === '2K' ? 2 : 1;
  if (faults.isRefusal) {
    const predictions = Array.from({ length: count }, () => ({ raiFilteredReason: filteredReason }));
    const answer = parameters.includeRaiReason ? { predictions } : {};
    return sendJson(exchange, { status: 200, headers: {}, body: answer, faults });
  }
  const seed = hashText(`imagen\u0000${input.model}\u0000${prompt}`);
  const predictions = Array.from({ length: count }, (_, index) => ({
    mimeType: 'image/png',
    bytesBase64Encoded: renderSampleImage({
      seed: `${seed}\u0000${index}`,
      width: size[0] * scale,
      height: size[1] * scale,
    }).toString('base64'),
  }));
  await sendJson(exchange, { status: 200, headers: {}, body: { predictions }, faults });
}
