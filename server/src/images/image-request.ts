import { z } from 'zod';

/**
 * `POST /v1/images/generations` in OpenAI's shape (`CreateImageRequest`). What each model accepts is checked later,
 * against its profile (`image-profiles.ts`). Unknown fields are refused (`unknown_parameter`, naming the field) rather
 * than silently dropped; OpenAI's `stream` and `partial_images` are read only to refuse a streamed answer, which the
 * gateway does not relay.
 * @see https://platform.openai.com/docs/api-reference/images/create
 */
export const imageRequestSchema = z.strictObject({
  model: z.string().min(1),
  prompt: z.string().refine((prompt) => prompt.trim() !== '', 'the prompt must not be empty'),
  n: z.number().int().nullable().optional(),
  size: z.string().nullable().optional(),
  quality: z.string().nullable().optional(),
  response_format: z.enum(['url', 'b64_json']).nullable().optional(),
  output_format: z.enum(['png', 'jpeg', 'webp']).nullable().optional(),
  background: z.enum(['transparent', 'opaque', 'auto']).nullable().optional(),
  style: z.enum(['vivid', 'natural']).nullable().optional(),
  moderation: z.enum(['low', 'auto']).nullable().optional(),
  output_compression: z.number().int().min(0).max(100).nullable().optional(),
  user: z.string().optional(),
  stream: z.boolean().nullable().optional(),
  partial_images: z.number().int().min(0).max(3).nullable().optional(),
});
export type ImageRequest = z.infer<typeof imageRequestSchema>;

/** One image of the answer: base64 bytes or a vendor URL, and DALL·E's rewritten prompt when it gives one. */
export type ImageDatum = { b64_json: string; revised_prompt?: string } | { url: string; revised_prompt?: string };

/** The answer: OpenAI's `ImagesResponse` plus `model` (the id requested) and `cost` (USD the ledger debited). */
export type ImagesResponse = {
  created: number;
  data: ImageDatum[];
  model: string;
  cost: number;
  usage?: ImageTokenUsage;
  size?: string;
  quality?: string;
  output_format?: string;
  background?: string;
};

/** Token usage as GPT image models report it; passed through for information, not used for billing. */
export type ImageTokenUsage = {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  input_tokens_details?: { text_tokens?: number; image_tokens?: number };
};
