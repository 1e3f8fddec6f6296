import { z } from 'zod';

/** Every error from `/v1` and `/api`: the OpenAI error body, all four keys present. */
export const errorBodySchema = z.object({
  error: z.object({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});
export type ErrorBodyContract = z.infer<typeof errorBodySchema>;
