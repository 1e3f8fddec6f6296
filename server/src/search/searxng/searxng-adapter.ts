import { joinUrl } from '../../providers/shared/join-url.ts';
import type { SearchEngineAdapter } from '../search-engine-adapter.ts';
import { SearchEngineError } from '../search-engine-error.ts';
import { clipQuery } from '../shared/clip-query.ts';
import { parseEngineBody } from '../shared/parse-engine-body.ts';
import { convertSearxngResponse } from './convert-searxng-response.ts';
import { searxngSearchResponseSchema } from './searxng-api.ts';

/**
 * A self-hosted SearXNG instance: no key of its own (one is sent as a Bearer token for a proxy in front, when
 * configured) and no result-count parameter, so the list is cut here. The instance must enable the JSON format
 * (`search.formats` in settings.yml); otherwise it answers 403.
 * @see https://docs.searxng.org/dev/search_api.html
 */
export const searxngAdapter: SearchEngineAdapter = {
  id: 'searxng',
  defaultBaseUrl: 'http://127.0.0.1:8888',
  isKeyRequired: false,
  maxResultsLimit: 50,
  buildRequest: ({ query, baseUrl, apiKey }) => {
    const parameters = new URLSearchParams({ q: clipQuery(query, { maxChars: 1000 }), format: 'json', pageno: '1' });
    const headers: Record<string, string> = { accept: 'application/json', 'accept-language': 'en-US,en;q=0.8' };
    if (apiKey !== undefined) headers.authorization = `Bearer ${apiKey}`;
    return { method: 'GET', url: `${joinUrl(baseUrl, 'search')}?${parameters.toString()}`, headers };
  },
  parseResponse: ({ body, maxResults }) => {
    const response = parseEngineBody(searxngSearchResponseSchema, body, 'searxng');
    const results = convertSearxngResponse(response, { maxResults });
    // An empty list with failed backends is an outage (CAPTCHAs, blocks), not "nothing found".
    const failedBackends = response.unresponsive_engines?.length ?? 0;
    if (results.length === 0 && failedBackends > 0) {
      throw new SearchEngineError({
        kind: 'unavailable',
        engine: 'searxng',
        status: 200,
        engineCode: 'unresponsive_engines',
        message: `SearXNG found nothing because ${failedBackends} of its backend engines did not answer.`,
      });
    }
    return results;
  },
  // SearXNG answers errors with HTML or plain text; a 403 means the JSON format is not enabled on the instance.
  readError: ({ status }) => (status === 403 ? { engineCode: 'format_not_enabled', refusal: 'request' } : {}),
};
