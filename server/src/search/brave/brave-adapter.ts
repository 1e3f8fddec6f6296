import { joinUrl } from '../../providers/shared/join-url.ts';
import type { EngineErrorReport, SearchEngineAdapter } from '../search-engine-adapter.ts';
import { clipQuery } from '../shared/clip-query.ts';
import { parseEngineBody } from '../shared/parse-engine-body.ts';
import { braveErrorResponseSchema, braveWebSearchResponseSchema } from './brave-api.ts';
import { convertBraveResponse } from './convert-brave-response.ts';

/**
 * Brave Search API, web search. `count` is at most 20; the query at most 400 characters and 50 words (longer ones
 * are a 422), so it is clipped. `text_decorations=false` asks for plain snippets, `result_filter=web` for web results
 * only.
 * @see https://api-dashboard.search.brave.com/api-reference/web/search/get
 */
export const braveAdapter: SearchEngineAdapter = {
  id: 'brave',
  defaultBaseUrl: 'https://api.search.brave.com',
  isKeyRequired: true,
  maxResultsLimit: 20,
  buildRequest: ({ query, maxResults, baseUrl, apiKey }) => {
    const parameters = new URLSearchParams({
      q: clipQuery(query, { maxChars: 400, maxWords: 50 }),
      count: String(maxResults),
      text_decorations: 'false',
      result_filter: 'web',
    });
    return {
      method: 'GET',
      url: `${joinUrl(baseUrl, 'res/v1/web/search')}?${parameters.toString()}`,
      headers: { accept: 'application/json', 'x-subscription-token': apiKey ?? '' },
    };
  },
  parseResponse: ({ body, maxResults }) =>
    convertBraveResponse(parseEngineBody(braveWebSearchResponseSchema, body, 'brave'), { maxResults }),
  readError: ({ body }) => readBraveError(body),
};

const credentialCodes = new Set(['SUBSCRIPTION_TOKEN_INVALID', 'SUBSCRIPTION_NOT_FOUND']);

/**
 * Brave puts the reason in the body, not the status: a bad key is a 422 like a bad request, and a used-up monthly
 * quota (`QUOTA_LIMITED`) is a 429 like a per-second rate limit (`RATE_LIMITED`) that passes.
 * @see https://api-dashboard.search.brave.com/api-reference/web/search/get
 */
export function readBraveError(body: unknown): EngineErrorReport {
  const parsed = braveErrorResponseSchema.safeParse(body);
  if (!parsed.success) return {};
  const error = parsed.data.error ?? parsed.data.errors?.[0];
  const code = error?.code ?? undefined;
  if (code === undefined) return {};
  if (credentialCodes.has(code)) return { engineCode: code, refusal: 'credential' };
  if (code === 'QUOTA_LIMITED') return { engineCode: code, refusal: 'quota' };
  const namesKeyHeader = (error?.meta?.errors ?? []).some((issue) =>
    (issue.loc ?? []).some((part) => String(part).toLowerCase() === 'x-subscription-token'),
  );
  if (namesKeyHeader) return { engineCode: code, refusal: 'credential' };
  return code === 'VALIDATION' ? { engineCode: code, refusal: 'request' } : { engineCode: code };
}
