import { RateLimitError } from '../errors/rate-limit-error.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import type { Caller } from './authenticate.ts';

/** The `x-ratelimit-*` headers OpenAI clients read, for the request budget of the key. */
export type RateLimitHeaders = Record<string, string>;

/**
 * Takes one request from the key's per-minute budget (the key's own limit, or the operator's default). Over it:
 * 429 with `Retry-After`, which SDKs honour.
 */
export async function checkRateLimit(
  deps: { rateLimiter: RateLimiter; defaultRequestsPerMinute: number },
  caller: Caller,
): Promise<RateLimitHeaders> {
  const limitPerMinute = caller.key.requestsPerMinute ?? deps.defaultRequestsPerMinute;
  const decision = await deps.rateLimiter.take({ subject: `key:${caller.key.id}`, limitPerMinute, cost: 1 });
  const headers: RateLimitHeaders = {
    'x-ratelimit-limit-requests': String(limitPerMinute),
    'x-ratelimit-reset-requests': `${Math.ceil(decision.resetMs / 1000)}s`,
  };
  if (decision.isAllowed) return { ...headers, 'x-ratelimit-remaining-requests': String(decision.remaining) };
  throw new RateLimitError(
    `Rate limit reached for this API key: ${limitPerMinute} requests per minute. Retry after the time in Retry-After.`,
    {
      retryAfterSeconds: decision.retryAfterMs / 1000,
      limitKind: 'requests',
      headers: { ...headers, 'x-ratelimit-remaining-requests': '0' },
    },
  );
}
