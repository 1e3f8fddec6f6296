import { z } from 'zod';

/**
 * One Tavily result. `content` is Tavily's query-relevant excerpt; `raw_content` the page text, only with
 * `include_raw_content`; `published_date` only for `topic: "news"` (an RFC 1123 date, not ISO).
 * @see https://docs.tavily.com/api-reference/endpoint/search
 */
export const tavilyResultSchema = z.object({
  url: z.string(),
  title: z.string().nullish(),
  content: z.string().nullish(),
  score: z.number().nullish(),
  raw_content: z.string().nullish(),
  published_date: z.string().nullish(),
  favicon: z.string().nullish(),
});

/** `POST /search`. The reference types `response_time` as a number; its example shows a string. */
export const tavilySearchResponseSchema = z.object({
  query: z.string().nullish(),
  answer: z.string().nullish(),
  results: z.array(tavilyResultSchema.nullable().catch(null)),
  response_time: z.union([z.number(), z.string()]).nullish(),
  request_id: z.string().nullish(),
});

/**
 * Tavily's error body, FastAPI style: `{"detail": {"error": "Unauthorized: missing or invalid API key."}}`.
 * @see https://help.tavily.com/articles/8645538886-understanding-http-errors
 */
export const tavilyErrorResponseSchema = z.object({
  detail: z.union([z.object({ error: z.string() }), z.string()]),
});

export type TavilyResult = z.infer<typeof tavilyResultSchema>;
export type TavilySearchResponse = z.infer<typeof tavilySearchResponseSchema>;
