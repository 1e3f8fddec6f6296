import { joinUrl } from '../../providers/shared/join-url.ts';
import type { EngineErrorReport, SearchEngineAdapter } from '../search-engine-adapter.ts';
import { clipQuery } from '../shared/clip-query.ts';
import { parseEngineBody } from '../shared/parse-engine-body.ts';
import { convertExaResponse } from './convert-exa-response.ts';
import { exaErrorResponseSchema, exaSearchResponseSchema } from './exa-api.ts';

/** Characters of query-relevant highlights asked for per result: enough to answer from, small enough to pay for. */
const highlightMaxCharacters = 1500;

/**
 * Exa Search with `x-api-key`, `type: "auto"` and highlights only: Exa bills each content view separately, and
 * highlights give the model the passages that answer the query at a fraction of the full text's tokens.
 * @see https://exa.ai/docs/reference/search
 * @see https://exa.ai/docs/search/highlights
 */
export const exaAdapter: SearchEngineAdapter = {
  id: 'exa',
  defaultBaseUrl: 'https://api.exa.ai',
  isKeyRequired: true,
  maxResultsLimit: 100,
  buildRequest: ({ query, maxResults, baseUrl, apiKey }) => ({
    method: 'POST',
    url: joinUrl(baseUrl, 'search'),
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-api-key': apiKey ?? '' },
    body: JSON.stringify({
      query: clipQuery(query, { maxChars: 1000 }),
      type: 'auto',
      numResults: maxResults,
      contents: { highlights: { maxCharacters: highlightMaxCharacters } },
    }),
  }),
  parseResponse: ({ body, maxResults }) =>
    convertExaResponse(parseEngineBody(exaSearchResponseSchema, body, 'exa'), { maxResults }),
  readError: ({ body }) => readExaError(body),
};

/**
 * Exa's `tag` names the reason; the status already classifies most of them (401 key, 402 credit, 429 rate).
 * @see https://exa.ai/docs/reference/error-codes
 */
function readExaError(body: unknown): EngineErrorReport {
  const parsed = exaErrorResponseSchema.safeParse(body);
  const tag = parsed.success ? (parsed.data.tag ?? undefined) : undefined;
  if (tag === 'PROHIBITED_CONTENT') return { engineCode: tag, refusal: 'request' };
  return { engineCode: tag };
}
