import { z } from 'zod';

/**
 * OpenAI's `ImagesResponse` (also spoken by OpenAI-dialect vendors): each datum carries `b64_json` or `url`.
 * @see https://platform.openai.com/docs/api-reference/images/object
 */
export const openAiImagesResponseSchema = z.looseObject({
  created: z.number().optional(),
  data: z.array(
    z.looseObject({
      b64_json: z.string().nullish(),
      url: z.string().nullish(),
      revised_prompt: z.string().nullish(),
    }),
  ),
  size: z.string().nullish(),
  quality: z.string().nullish(),
  output_format: z.string().nullish(),
  background: z.string().nullish(),
  usage: z
    .looseObject({
      input_tokens: z.number().int().nonnegative(),
      output_tokens: z.number().int().nonnegative(),
      total_tokens: z.number().int().nonnegative(),
      input_tokens_details: z
        .looseObject({ text_tokens: z.number().int().optional(), image_tokens: z.number().int().optional() })
        .optional(),
    })
    .nullish(),
});
export type OpenAiImagesResponse = z.infer<typeof openAiImagesResponseSchema>;
