import { z } from 'zod';

/**
 * One web result. `description` carries `<strong>` markup unless `text_decorations=false`; `age` is for display
 * ("2 days ago", "March 4, 2025"), `page_age` is the page's own date (`2025-03-04T00:00:00`).
 * @see https://api-dashboard.search.brave.com/app/documentation/web-search/responses
 */
export const braveWebResultSchema = z.object({
  type: z.string().nullish(),
  title: z.string().nullish(),
  url: z.string(),
  description: z.string().nullish(),
  age: z.string().nullish(),
  page_age: z.string().nullish(),
  language: z.string().nullish(),
  /** Up to 5 more excerpts, on plans that include them. */
  extra_snippets: z.array(z.string()).nullish(),
});

/** `GET /res/v1/web/search`. `web` is absent when nothing was found. */
export const braveWebSearchResponseSchema = z.object({
  type: z.literal('search'),
  query: z.object({ original: z.string() }).nullish(),
  web: z
    .object({
      type: z.string().nullish(),
      results: z.array(braveWebResultSchema.nullable().catch(null)),
    })
    .nullish(),
});

const braveErrorModelSchema = z.object({
  id: z.string().nullish(),
  status: z.number().nullish(),
  code: z.string().nullish(),
  detail: z.string().nullish(),
  meta: z
    .object({
      component: z.string().nullish(),
      errors: z.array(z.object({ loc: z.array(z.union([z.string(), z.number()])).nullish() })).nullish(),
    })
    .nullish()
    .catch(null),
});

/**
 * Brave's error body. The schema names a single `error`; the reference examples show an `errors` list, so both are
 * read. A bad key is a 422 `SUBSCRIPTION_TOKEN_INVALID`, not a 401; a missing key is a 422 `VALIDATION` whose
 * `meta.errors[].loc` names the `x-subscription-token` header.
 * @see https://api-dashboard.search.brave.com/api-reference/web/search/get
 */
export const braveErrorResponseSchema = z.object({
  type: z.string().nullish(),
  error: braveErrorModelSchema.nullish(),
  errors: z.array(braveErrorModelSchema).nullish(),
});

export type BraveWebResult = z.infer<typeof braveWebResultSchema>;
export type BraveWebSearchResponse = z.infer<typeof braveWebSearchResponseSchema>;
export type BraveErrorResponse = z.infer<typeof braveErrorResponseSchema>;
