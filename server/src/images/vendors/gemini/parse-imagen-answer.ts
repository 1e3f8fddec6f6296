import { parseVendorBody } from '../../../providers/shared/parse-vendor-body.ts';
import type { GeneratedImages } from '../../image-client.ts';
import { imagenPredictResponseSchema } from './google-images-api.ts';
import { createContentPolicyFailure } from '../shared/content-policy-failure.ts';

/**
 * Imagen's `:predict` answer → the images delivered. With `includeRaiReason` a filtered image is a prediction with
 * only `raiFilteredReason`: fewer images than asked are delivered (and billed); when every image was filtered, that
 * reason is the content-policy refusal the client sees.
 * @see https://ai.google.dev/api/models#method:-models.predict
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/imagen-api (raiFilteredReason)
 */
export function parseImagenAnswer(body: unknown, count: number): GeneratedImages {
  const answer = parseVendorBody(imagenPredictResponseSchema, body, 'Imagen');
  const predictions = answer.predictions ?? [];
  const images = predictions.flatMap((prediction) =>
    prediction.bytesBase64Encoded ? [{ b64_json: prediction.bytesBase64Encoded }] : [],
  );
  if (images.length > 0) return { images: images.slice(0, count) };
  const reason = predictions.find((prediction) => prediction.raiFilteredReason)?.raiFilteredReason;
  throw createContentPolicyFailure({ vendorName: 'Google', reason: reason ?? 'every image was filtered' });
}
