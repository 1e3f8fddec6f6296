import type { GeneratedImages, ImageCallInput } from '../../image-client.ts';
import { imagenAspectRatios } from '../../image-profiles.ts';
import { postToGoogle } from './post-to-google.ts';
import { parseImagenAnswer } from './parse-imagen-answer.ts';

/**
 * Imagen through `:predict`: one instance with the prompt, `sampleCount` = n (always sent: Imagen's default is 4)
 * and the aspect ratio of the requested size. `includeRaiReason` makes Google say why an image was filtered.
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
  return parseImagenAnswer(await postToGoogle(input, { method: 'predict', body }), input.job.count);
}
