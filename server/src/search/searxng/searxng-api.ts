import { z } from 'zod';

/**
 * One result of SearXNG's JSON output. Results come from many backend engines, so fields vary; a result that does
 * not fit (no URL) is dropped alone, via `.catch(null)`, instead of failing the whole answer.
 * @see https://docs.searxng.org/dev/search_api.html
 */
export const searxngResultSchema = z.object({
  url: z.string(),
  title: z.string().nullish(),
  content: z.string().nullish(),
  /** ISO 8601 without a zone (`2024-03-21T00:00:00`) or null. */
  publishedDate: z.string().nullish(),
  engine: z.string().nullish(),
  score: z.number().nullish(),
  category: z.string().nullish(),
});

/** `GET /search?q=…&format=json`. */
export const searxngSearchResponseSchema = z.object({
  query: z.string().nullish(),
  number_of_results: z.number().nullish(),
  results: z.array(searxngResultSchema.nullable().catch(null)),
  /** `[engine name, reason]` pairs for the backend engines that failed (CAPTCHA, timeout, access denied). */
  unresponsive_engines: z.array(z.unknown()).nullish(),
});

export type SearxngResult = z.infer<typeof searxngResultSchema>;
export type SearxngSearchResponse = z.infer<typeof searxngSearchResponseSchema>;
