import { UpstreamFailureError } from '../../../providers/provider-adapter.ts';
import { parseVendorBody } from '../../../providers/shared/parse-vendor-body.ts';
import type { GeneratedImages, ImageCallInput } from '../../image-client.ts';
import { geminiImageAspectRatios } from '../../image-profiles.ts';
import { createContentPolicyFailure } from '../shared/content-policy-failure.ts';
import { geminiImageResponseSchema } from './google-images-api.ts';
import { postToGoogle } from './post-to-google.ts';

/**
 * A Gemini image model through `:generateContent`: the prompt as one user turn, `responseModalities: ["IMAGE"]`
 * and the aspect ratio of the requested size; the image comes back as an `inlineData` part. A blocked prompt or a
 * safety stop is a content-policy refusal; an answer with no image at all is one too (the model declined).
 * @see https://ai.google.dev/gemini-api/docs/image-generation
 */
export async function generateGeminiImage(input: ImageCallInput): Promise<GeneratedImages> {
  const aspectRatio = geminiImageAspectRatios[input.job.size] ?? '1:1';
  const body = {
    contents: [{ role: 'user', parts: [{ text: input.job.prompt }] }],
    generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio } },
  };
  const answer = parseVendorBody(
    geminiImageResponseSchema,
    await postToGoogle(input, { method: 'generateContent', body }),
    'Gemini',
  );
  const blockReason = answer.promptFeedback?.blockReason;
  if (blockReason) throw createContentPolicyFailure({ vendorName: 'Google', reason: blockReason });
  const candidate = answer.candidates?.[0];
  const images = (candidate?.content?.parts ?? []).flatMap((part) =>
    part.inlineData && part.inlineData.mimeType.startsWith('image/') ? [{ b64_json: part.inlineData.data }] : [],
  );
  if (images.length > 0) return { images: images.slice(0, input.job.count) };
  const finishReason = candidate?.finishReason;
  if (finishReason && finishReason !== 'STOP') {
    throw createContentPolicyFailure({ vendorName: 'Google', reason: finishReason });
  }
  throw new UpstreamFailureError({
    kind: 'request',
    status: 400,
    message: 'The model answered without an image. Rephrase the prompt as a request for a picture and try again.',
    param: 'prompt',
    vendorCode: 'no_image_generated',
  });
}
