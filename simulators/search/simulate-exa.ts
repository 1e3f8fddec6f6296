import { randomBytes } from 'node:crypto';
import type { EngineSimulator, SimulatedAnswer } from './engine-simulator.ts';
import type { SimulatedPage } from './plan-search-pages.ts';
import { isRejectedKey, readBearerToken, readHeader } from './read-request-key.ts';

const searchTypes = new Set(['auto', 'neural', 'fast', 'instant', 'deep', 'deep-lite', 'deep-reasoning', 'keyword']);
const authors = ['Alex Morgan', 'Priya Raman', 'Jonas Weber', null];

type ContentsRequest = { text: number | undefined; highlights: number | undefined };

/**
 * Exa's `POST /search` with `x-api-key` (or a Bearer token). `contents.text` and `contents.highlights` take `true` or
 * `{maxCharacters}`; without `contents`, results carry highlights, as Exa's default. Errors are
 * `{requestId, error, tag}`.
 * @see https://exa.ai/docs/reference/search
 * @see https://exa.ai/docs/reference/error-codes
 */
export const exaSimulator: EngineSimulator = {
  id: 'exa',
  method: 'POST',
  path: '/search',
  readRequest: ({ body, headers }) => {
    const key = readHeader(headers, 'x-api-key') ?? readBearerToken(headers);
    if (key === undefined || isRejectedKey(key)) {
      return { isValid: false, answer: exaError(401, 'Invalid API key', 'INVALID_API_KEY') };
    }
    const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const query = typeof fields.query === 'string' ? fields.query.trim() : '';
    if (query === '')
      return invalid('Invalid request body | query: expected a non-empty string', 'INVALID_REQUEST_BODY');
    const count = fields.numResults ?? 10;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 100) {
      return invalid('numResults must be an integer from 1 to 100', 'INVALID_NUM_RESULTS');
    }
    const type = fields.type ?? 'auto';
    if (typeof type !== 'string' || !searchTypes.has(type))
      return invalid(`Unknown search type`, 'INVALID_REQUEST_BODY');
    const contents = readContents(fields.contents);
    return { isValid: true, request: { query, count, options: { type, ...contents } } };
  },
  renderResults: ({ pages, request }) => {
    const contents: ContentsRequest = {
      text: typeof request.options.text === 'number' ? request.options.text : undefined,
      highlights: typeof request.options.highlights === 'number' ? request.options.highlights : undefined,
    };
    const extraResults = Math.max(0, pages.length - 10);
    return {
      status: 200,
      body: {
        requestId: randomBytes(16).toString('hex'),
        resolvedSearchType: request.options.type === 'auto' ? 'neural' : request.options.type,
        results: pages.map((page, rank) => renderResult(page, { rank, contents })),
        costDollars: { total: Math.round((0.007 + extraResults * 0.001) * 1000) / 1000 },
      },
    };
  },
  renderError: (status) => {
    if (status === 429) return { ...exaError(429, 'Rate limit exceeded'), headers: { 'retry-after': '1' } };
    if (status === 402) return exaError(402, 'You have run out of credits', 'NO_MORE_CREDITS');
    return exaError(status, status >= 500 ? 'Internal server error' : 'Bad request');
  },
};

function readContents(value: unknown): ContentsRequest {
  if (typeof value !== 'object' || value === null) return { text: undefined, highlights: 2000 };
  const fields = value as Record<string, unknown>;
  return { text: readMaxCharacters(fields.text, 10_000), highlights: readMaxCharacters(fields.highlights, 2000) };
}

function readMaxCharacters(option: unknown, fallback: number): number | undefined {
  if (option === true) return fallback;
  if (typeof option !== 'object' || option === null) return undefined;
  const maxCharacters = (option as Record<string, unknown>).maxCharacters;
  return typeof maxCharacters === 'number' && maxCharacters > 0 ? maxCharacters : fallback;
}

function renderResult(
  page: SimulatedPage,
  input: { rank: number; contents: ContentsRequest },
): Record<string, unknown> {
  const result: Record<string, unknown> = {
    id: page.url,
    title: page.title,
    url: page.url,
    publishedDate: page.publishedAt === undefined ? null : `${page.publishedAt}.000Z`,
    author: authors[input.rank % authors.length],
    image: `https://${page.domain}/og-image.png`,
    favicon: `https://${page.domain}/favicon.ico`,
  };
  if (input.contents.text !== undefined) result.text = page.content.slice(0, input.contents.text);
  if (input.contents.highlights !== undefined) {
    const highlights = selectHighlights(page.content, input.contents.highlights);
    result.highlights = highlights;
    result.highlightScores = highlights.map((_, index) => Math.round((page.score - index * 0.05) * 1000) / 1000);
  }
  return result;
}

/** Whole sentences of the page, up to the character budget (at least one, cut if it alone is too long). */
function selectHighlights(content: string, maxCharacters: number): string[] {
  const sentences = content.match(/[^.!?]+[.!?]+/g)?.map((sentence) => sentence.trim()) ?? [content];
  const chosen: string[] = [];
  let used = 0;
  for (const sentence of sentences.length > 1 ? sentences.slice(1, 4) : sentences) {
    if (used + sentence.length > maxCharacters && chosen.length > 0) break;
    chosen.push(sentence.slice(0, maxCharacters));
    used += sentence.length;
  }
  return chosen;
}

function exaError(status: number, error: string, tag?: string): SimulatedAnswer {
  const body: Record<string, unknown> = { requestId: randomBytes(16).toString('hex'), error };
  if (tag !== undefined) body.tag = tag;
  return { status, body };
}

function invalid(error: string, tag: string): { isValid: false; answer: SimulatedAnswer } {
  return { isValid: false, answer: exaError(400, error, tag) };
}
