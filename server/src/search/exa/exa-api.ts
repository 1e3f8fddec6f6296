import { z } from 'zod';

/**
 * One Exa result. `title`, `publishedDate` and `author` may be null; `text`, `highlights` and `summary` appear only
 * when asked for in `contents`.
 * @see https://exa.ai/docs/reference/search
 */
export const exaResultSchema = z.object({
  id: z.string().nullish(),
  url: z.string(),
  title: z.string().nullish(),
  publishedDate: z.string().nullish(),
  author: z.string().nullish(),
  score: z.number().nullish(),
  text: z.string().nullish(),
  highlights: z.array(z.string()).nullish(),
  highlightScores: z.array(z.number()).nullish(),
  summary: z.string().nullish(),
  image: z.string().nullish(),
  favicon: z.string().nullish(),
});

/** `POST /search`. */
export const exaSearchResponseSchema = z.object({
  requestId: z.string().nullish(),
  resolvedSearchType: z.string().nullish(),
  searchType: z.string().nullish(),
  results: z.array(exaResultSchema.nullable().catch(null)),
  costDollars: z.object({ total: z.number().nullish() }).nullish().catch(null),
});

/**
 * Exa's error body: `{"requestId", "error": "Invalid API key", "tag": "INVALID_API_KEY"}`.
 * @see https://exa.ai/docs/reference/error-codes
 */
export const exaErrorResponseSchema = z.object({
  requestId: z.string().nullish(),
  error: z.string().nullish(),
  tag: z.string().nullish(),
});

export type ExaResult = z.infer<typeof exaResultSchema>;
export type ExaSearchResponse = z.infer<typeof exaSearchResponseSchema>;
