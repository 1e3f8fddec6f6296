import { parseVendorBody } from '../../../providers/shared/parse-vendor-body.ts';
import type { GeneratedImages, ImageCallInput } from '../../image-client.ts';
import { imagenAspectRatios } from '../../image-profiles.ts';
import { imagenPredictResponseSchema } from '../gemini/google-images-api.ts';
import { postToGoogle } from '../gemini/post-to-google.ts';
import { createContentPolicyFailure } from '../shared/content-policy-failure.ts';

/**
 * Imagen through `:predict`: one instance with the prompt, `sampleCount` = n (always sent: Imagen's default is 4)
 * and the aspect ratio of the requested size. `includeRaiReason` makes Google say why an image was filtered; when
 * every image was, that reason is the refusal the client sees.
 * @see https://ai.google.dev/gemini-api/docs/imagen
 */
export async function generateImagenImages(input: ImageCallInput): Promise<GeneratedImages> {
  const body = {
    instances: [{ prompt: input.job.prompt }],
    parameters: {
      sampleCount: input.job.count,
      aspectRatio: imagenAspectRatios[input.job.size] ?? '1:1',
      includeRaiReason: true,
    },
  };
  const answer = parseVendorBody(
    imagenPredictResponseSchema,
    await postToGoogle(input, { method: 'predict', body }),
    'Imagen',
  );
  const predictions = answer.predictions ?? [];
  const images = predictions.flatMap((prediction) =>
    prediction.bytesBase64Encoded ? [{ b64_json: prediction.bytesBase64Encoded }] : [],
  );
  if (images.length > 0) return { images: images.slice(0, input.job.count) };
  const reason = predictions.find((prediction) => prediction.raiFilteredReason)?.raiFilteredReason;
  throw createContentPolicyFailure({ vendorName: 'Google', reason: reason ?? 'every image was filtered' });
}
