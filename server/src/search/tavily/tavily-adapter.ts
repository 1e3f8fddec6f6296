import { joinUrl } from '../../providers/shared/join-url.ts';
import type { EngineErrorReport, SearchEngineAdapter } from '../search-engine-adapter.ts';
import { clipQuery } from '../shared/clip-query.ts';
import { parseEngineBody } from '../shared/parse-engine-body.ts';
import { convertTavilyResponse } from './convert-tavily-response.ts';
import { tavilySearchResponseSchema } from './tavily-api.ts';

/**
 * Tavily Search: a Bearer key, a `basic` search (one credit; `advanced` costs two), no generated answer, no raw page
 * text, at most 20 results, and queries of at most 400 characters.
 * @see https://docs.tavily.com/api-reference/endpoint/search
 */
export const tavilyAdapter: SearchEngineAdapter = {
  id: 'tavily',
  defaultBaseUrl: 'https://api.tavily.com',
  isKeyRequired: true,
  maxResultsLimit: 20,
  buildRequest: ({ query, maxResults, baseUrl, apiKey }) => ({
    method: 'POST',
    url: joinUrl(baseUrl, 'search'),
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: `Bearer ${apiKey ?? ''}`,
    },
    body: JSON.stringify({
      query: clipQuery(query, { maxChars: 400 }),
      max_results: maxResults,
      search_depth: 'basic',
      topic: 'general',
      include_answer: false,
      include_raw_content: false,
      include_images: false,
    }),
  }),
  parseResponse: ({ body, maxResults }) =>
    convertTavilyResponse(parseEngineBody(tavilySearchResponseSchema, body, 'tavily'), { maxResults }),
  readError: ({ status }) => readTavilyError(status),
};

/**
 * Tavily's bodies carry prose only, so the status decides; 432 (plan limit) and 433 (pay-as-you-go limit) are its
 * own codes for a used-up quota.
 * @see https://help.tavily.com/articles/8645538886-understanding-http-errors
 */
function readTavilyError(status: number): EngineErrorReport {
  if (status === 432) return { engineCode: 'plan_limit_exceeded', refusal: 'quota' };
  if (status === 433) return { engineCode: 'pay_as_you_go_limit_exceeded', refusal: 'quota' };
  return {};
}
