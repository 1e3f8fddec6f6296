import type { EngineSimulator, SimulatedAnswer } from './engine-simulator.ts';
import { isRejectedKey, readBearerToken } from './read-request-key.ts';

const backendEngines = ['duckduckgo', 'brave', 'startpage', 'wikipedia', 'qwant', 'mojeek'];

/**
 * SearXNG's JSON API: `GET /search?q=…&format=json`. No key of its own; a Bearer token is checked when sent (as a
 * reverse proxy in front would). Any format but `json` is a 403, as on an instance with only JSON enabled besides HTML.
 * @see https://docs.searxng.org/dev/search_api.html
 */
export const searxngSimulator: EngineSimulator = {
  id: 'searxng',
  method: 'GET',
  path: '/search',
  readRequest: ({ query, headers }) => {
    const token = readBearerToken(headers);
    if (token !== undefined && isRejectedKey(token)) return { isValid: false, answer: htmlError(401, 'Unauthorized') };
    if (query.get('format') !== 'json') return { isValid: false, answer: htmlError(403, 'Forbidden') };
    const text = query.get('q')?.trim() ?? '';
    if (text === '') return { isValid: false, answer: htmlError(400, 'Bad Request') };
    return { isValid: true, request: { query: text, count: undefined, options: {} } };
  },
  renderResults: ({ pages, request }) => ({
    status: 200,
    body: {
      query: request.query,
      number_of_results: 0,
      results: pages.map((page, rank) => {
        const url = new URL(page.url);
        const engines = [backendEngines[rank % backendEngines.length], backendEngines[(rank + 2) % 6]];
        return {
          url: page.url,
          title: page.title,
          content: page.snippet,
          publishedDate: page.publishedAt ?? null,
          thumbnail: '',
          engine: engines[0],
          template: 'default.html',
          parsed_url: ['https', url.host, url.pathname, '', url.search.slice(1), ''],
          img_src: '',
          priority: '',
          engines,
          positions: [rank + 1, rank + 2],
          score: Math.round(page.score * 4000) / 1000,
          category: 'general',
        };
      }),
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: pages.length === 0 ? [] : [`${request.query} explained`, `${request.query} examples`],
      unresponsive_engines: [],
    },
  }),
  renderError: (status) => htmlError(status, status === 429 ? 'Too Many Requests' : 'Internal Server Error'),
};

function htmlError(status: number, title: string): SimulatedAnswer {
  return { status, isHtml: true, body: `<!doctype html><html><head><title>${status} ${title}</title></head></html>` };
}
