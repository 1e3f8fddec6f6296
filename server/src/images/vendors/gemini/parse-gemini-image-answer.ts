import { UpstreamFailureError } from '../../../providers/provider-adapter.ts';
import { parseVendorBody } from '../../../providers/shared/parse-vendor-body.ts';
import type { GeneratedImages } from '../../image-client.ts';
import { createContentPolicyFailure } from '../shared/content-policy-failure.ts';
import { geminiImageResponseSchema } from './google-images-api.ts';

/**
 * A `generateContent` answer of a Gemini image model → its `inlineData` images (text parts are dropped). A blocked
 * prompt (`promptFeedback.blockReason`) or a candidate stopped by a safety `finishReason` with no image is a
 * content-policy refusal; an answer that ends normally with no image means the model declined to draw.
 * @see https://ai.google.dev/gemini-api/docs/image-generation
 * @see https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse
 */
export function parseGeminiImageAnswer(body: unknown, count: number): GeneratedImages {
  const answer = parseVendorBody(geminiImageResponseSchema, body, 'Gemini');
  const blockReason = answer.promptFeedback?.blockReason;
  if (blockReason) throw createContentPolicyFailure({ vendorName: 'Google', reason: blockReason });
  const candidate = answer.candidates?.[0];
  const images = (candidate?.content?.parts ?? []).flatMap((part) =>
    part.inlineData && part.inlineData.mimeType.startsWith('image/') ? [{ b64_json: part.inlineData.data }] : [],
  );
  if (images.length > 0) return { images: images.slice(0, count) };
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
