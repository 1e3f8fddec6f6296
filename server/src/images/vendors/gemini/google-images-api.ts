import { z } from 'zod';

/**
 * The parts of a `generateContent` answer an image model fills: `inlineData` images (and perhaps text), or a blocked
 * prompt (`promptFeedback.blockReason`), or a candidate stopped by a safety `finishReason`.
 * @see https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse
 */
export const geminiImageResponseSchema = z.looseObject({
  candidates: z
    .array(
      z.looseObject({
        content: z
          .looseObject({
            parts: z
              .array(
                z.looseObject({
                  text: z.string().optional(),
                  inlineData: z.looseObject({ mimeType: z.string(), data: z.string() }).optional(),
                }),
              )
              .optional(),
          })
          .optional(),
        finishReason: z.string().optional(),
      }),
    )
    .optional(),
  promptFeedback: z.looseObject({ blockReason: z.string().optional() }).optional(),
});

/**
 * Imagen's `:predict` answer: one prediction per image; a filtered image carries only `raiFilteredReason` (when
 * `includeRaiReason` was set), and an answer whose every image was filtered may have no predictions at all.
 * @see https://ai.google.dev/api/models#method:-models.predict
 */
export const imagenPredictResponseSchema = z.looseObject({
  predictions: z
    .array(
      z.looseObject({
        bytesBase64Encoded: z.string().optional(),
        mimeType: z.string().optional(),
        raiFilteredReason: z.string().optional(),
      }),
    )
    .optional(),
});
