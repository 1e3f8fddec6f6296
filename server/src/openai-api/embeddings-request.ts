import { z } from 'zod';

const tokenSchema = z.number().int().min(0);

/**
 * `POST /v1/embeddings` in OpenAI's shape (`CreateEmbeddingRequest`): `input` a string, an array of strings, an array
 * of token ids, or an array of such arrays.
 * @see https://platform.openai.com/docs/api-reference/embeddings/create
 */
export const embeddingsRequestSchema = z
  .object({
    model: z.string().min(1),
    input: z.union([z.string(), z.array(z.string()), z.array(tokenSchema), z.array(z.array(tokenSchema))]),
    dimensions: z.number().int().min(1).optional(),
    encoding_format: z.enum(['float', 'base64']).optional(),
    user: z.string().optional(),
  })
  .loose();

export type EmbeddingsRequest = z.infer<typeof embeddingsRequestSchema>;

/** `CreateEmbeddingResponse`, with the gateway's `usage.cost` (USD, what the ledger debited). */
export type EmbeddingsResponse = {
  object: 'list';
  data: Array<{ object: 'embedding'; index: number; embedding: number[] | string }>;
  model: string;
  usage: { prompt_tokens: number; total_tokens: number; cost: number };
};
