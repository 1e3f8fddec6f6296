import { randomUUID } from 'node:crypto';
import type { EngineSimulator, SimulatedAnswer } from './engine-simulator.ts';
import { isRejectedKey, readBearerToken } from './read-request-key.ts';

const searchDepths = new Set(['basic', 'advanced', 'fast', 'ultra-fast']);
const statusMessages: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized: missing or invalid API key.',
  429: 'Your request has been blocked due to excessive requests. Please reduce rate of requests.',
  432: "This request exceeds your plan's set usage limit. Please upgrade your plan or contact support@tavily.com.",
  433: 'This request exceeds the pay-as-you-go limit. You can increase your limit on the Tavily dashboard.',
};

/**
 * Tavily's `POST /search` with `Authorization: Bearer` (the older `api_key` body field is accepted too); errors are
 * FastAPI-style `{"detail": {"error": …}}`.
 * @see https://docs.tavily.com/api-reference/endpoint/search
 * @see https://help.tavily.com/articles/8645538886-understanding-http-errors
 */
export const tavilySimulator: EngineSimulator = {
  id: 'tavily',
  method: 'POST',
  path: '/search',
  readRequest: ({ body, headers }) => {
    const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const key = readBearerToken(headers) ?? (typeof fields.api_key === 'string' ? fields.api_key : undefined);
    if (key === undefined || isRejectedKey(key)) return { isValid: false, answer: tavilyError(401) };
    const query = typeof fields.query === 'string' ? fields.query.trim() : '';
    if (query === '') return invalid('Query is missing.');
    if (query.length > 400) return invalid('Query is too long. Max query length is 400 characters.');
    const count = fields.max_results ?? 5;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > 20) {
      return invalid('max_results must be between 0 and 20.');
    }
    const depth = fields.search_depth ?? 'basic';
    if (typeof depth !== 'string' || !searchDepths.has(depth)) return invalid('Invalid search depth.');
    const options = { hasRawContent: fields.include_raw_content === true, hasAnswer: fields.include_answer === true };
    return { isValid: true, request: { query, count, options } };
  },
  renderResults: ({ pages, request }) => ({
    status: 200,
    body: {
      query: request.query,
      follow_up_questions: null,
      answer: request.options.hasAnswer === true && pages[0] !== undefined ? pages[0].snippet : null,
      images: [],
      results: pages.map((page) => ({
        url: page.url,
        title: page.title,
        content: page.snippet,
        score: page.score,
        raw_content: request.options.hasRawContent === true ? page.content : null,
      })),
      response_time: Math.round((0.6 + pages.length * 0.07) * 100) / 100,
      request_id: randomUUID(),
    },
  }),
  renderError: (status) => tavilyError(status),
};

function tavilyError(status: number, message?: string): SimulatedAnswer {
  const error = message ?? statusMessages[status] ?? (status >= 500 ? 'Internal Server Error' : 'Bad Request');
  return { status, headers: status === 429 ? { 'retry-after': '1' } : {}, body: { detail: { error } } };
}

function invalid(message: string): { isValid: false; answer: SimulatedAnswer } {
  return { isValid: false, answer: tavilyError(400, message) };
}
