import { randomUUID } from 'node:crypto';
import type { EngineSimulator, SimulatedAnswer } from './engine-simulator.ts';
import { isRejectedKey, readHeader } from './read-request-key.ts';

const monthNames = 'January February March April May June July August September October November December'.split(' ');
const rateLimitHeaders = {
  'x-ratelimit-limit': '1, 15000',
  'x-ratelimit-policy': '1;w=1, 15000;w=2592000',
  'x-ratelimit-remaining': '0, 14999',
  'x-ratelimit-reset': '1, 1419704',
};

/**
 * Brave's web search: `GET /res/v1/web/search` with `X-Subscription-Token`. As observed from Brave, a missing key is
 * a 422 `VALIDATION` naming the header and a bad key a 422 `SUBSCRIPTION_TOKEN_INVALID`; `count` is 1–20; the query
 * at most 400 characters and 50 words. Without `text_decorations=false`, query words in descriptions are in `<strong>`.
 * @see https://api-dashboard.search.brave.com/api-reference/web/search/get
 * @see https://api-dashboard.search.brave.com/app/documentation/web-search/responses
 */
export const braveSimulator: EngineSimulator = {
  id: 'brave',
  method: 'GET',
  path: '/res/v1/web/search',
  readRequest: ({ query, headers }) => {
    const key = readHeader(headers, 'x-subscription-token');
    if (key === undefined) {
      return invalid('VALIDATION', 'Unable to validate request parameter(s)', ['header', 'x-subscription-token']);
    }
    if (isRejectedKey(key)) return { isValid: false, answer: braveError(422, 'SUBSCRIPTION_TOKEN_INVALID') };
    const text = query.get('q')?.trim() ?? '';
    if (text === '' || text.length > 400 || text.split(/\s+/).length > 50) {
      return invalid('VALIDATION', 'Unable to validate request parameter(s)', ['query', 'q']);
    }
    const count = query.has('count') ? Number(query.get('count')) : 20;
    if (!Number.isInteger(count) || count < 1 || count > 20) {
      return invalid('VALIDATION', 'Unable to validate request parameter(s)', ['query', 'count']);
    }
    const isDecorated = !['false', '0'].includes(query.get('text_decorations') ?? 'true');
    return { isValid: true, request: { query: text, count, options: { isDecorated } } };
  },
  renderResults: ({ pages, request }) => {
    const results = pages.map((page) => {
      const url = new URL(page.url);
      const description = request.options.isDecorated === true ? decorate(page.snippet, request.query) : page.snippet;
      return {
        title: page.title,
        url: page.url,
        is_source_local: false,
        is_source_both: false,
        description,
        ...(page.publishedAt === undefined ? {} : { page_age: page.publishedAt, age: formatAge(page.publishedAt) }),
        profile: {
          name: page.siteName,
          url: `https://${page.domain}`,
          long_name: page.domain,
          img: favicon(page.domain),
        },
        language: 'en',
        family_friendly: true,
        type: 'search_result',
        subtype: 'generic',
        is_live: false,
        meta_url: {
          scheme: 'https',
          netloc: page.domain,
          hostname: page.domain,
          favicon: favicon(page.domain),
          path: url.pathname
            .split('/')
            .filter(Boolean)
            .map((part) => `› ${part}`)
            .join(' '),
        },
      };
    });
    const body: Record<string, unknown> = {
      query: { original: request.query, show_strict_warning: false, is_navigational: false, spellcheck_off: true },
      mixed: {
        type: 'mixed',
        main: results.map((_, index) => ({ type: 'web', index, all: false })),
        top: [],
        side: [],
      },
      type: 'search',
    };
    if (results.length > 0) body.web = { type: 'search', results, family_friendly: true };
    return { status: 200, headers: rateLimitHeaders, body };
  },
  renderError: (status) => {
    if (status === 429) return braveError(429, 'RATE_LIMITED', { ...rateLimitHeaders, 'retry-after': '1' });
    return braveError(status, status >= 500 ? 'INTERNAL_ERROR' : 'VALIDATION');
  },
};

const details: Readonly<Record<string, string>> = {
  SUBSCRIPTION_TOKEN_INVALID: 'The provided subscription token is invalid.',
  RATE_LIMITED: 'Request rate limit exceeded for plan.',
  INTERNAL_ERROR: 'An internal error occurred.',
  VALIDATION: 'Unable to validate request parameter(s)',
};
const components: Readonly<Record<string, string>> = {
  SUBSCRIPTION_TOKEN_INVALID: 'authentication',
  RATE_LIMITED: 'rate_limiter',
  VALIDATION: 'validation',
};

function braveError(status: number, code: string, headers: Record<string, string> = {}): SimulatedAnswer {
  const meta = { component: components[code] ?? 'search' };
  return { status, headers, body: errorBody(status, code, details[code] ?? 'Error.', meta) };
}

function invalid(
  code: string,
  detail: string,
  location: readonly string[],
): { isValid: false; answer: SimulatedAnswer } {
  const meta = { errors: [{ type: 'missing', loc: location, msg: 'Field required' }] };
  return { isValid: false, answer: { status: 422, body: errorBody(422, code, detail, meta) } };
}

function errorBody(status: number, code: string, detail: string, meta: unknown): unknown {
  return {
    type: 'ErrorResponse',
    error: { id: randomUUID(), status, code, detail, meta },
    time: Math.floor(Date.now() / 1000),
  };
}

function decorate(text: string, query: string): string {
  const words = query.split(/\s+/).filter((word) => /^[\p{L}\p{N}]{3,}$/u.test(word));
  if (words.length === 0) return text;
  const pattern = new RegExp(`(${words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'giu');
  return text.replace(pattern, '<strong>$1</strong>');
}

function formatAge(publishedAt: string): string {
  const [year, month, day] = publishedAt.slice(0, 10).split('-').map(Number);
  return `${monthNames[(month ?? 1) - 1]} ${day}, ${year}`;
}

function favicon(domain: string): string {
  return `https://imgs.search.brave.com/${Buffer.from(domain).toString('base64url')}/rs:fit:32:32:1:0/g:ce/favicon.ico`;
}
