import { RateLimitError } from '../errors/rate-limit-error.ts';
import { formatResetTime, type RateLimiter } from '../limits/rate-limiter.ts';
import type { TokenLimit } from '../limits/token-budget.ts';
import type { AccountTerms } from '../accounts/account-terms.ts';
import type { Caller } from './authenticate.ts';

/** The `x-ratelimit-*` headers OpenAI clients read, for the request budget of the key. */
export type RateLimitHeaders = Record<string, string>;

/**
 * Takes one request from the key's per-minute budget (the key's own limit, or the operator's default). Over it:
 * 429 with `Retry-After`, which SDKs honour.
 */
export async function checkRateLimit(
  deps: {
    rateLimiter: RateLimiter;
    defaultRequestsPerMinute: number;
    accountTerms: Pick<AccountTerms, 'requestsPerMinute'>;
  },
  caller: Caller,
): Promise<RateLimitHeaders> {
  const accountLimitPerMinute = deps.accountTerms.requestsPerMinute(caller.userId);
  if (accountLimitPerMinute !== undefined) await takeAccountBudget(deps.rateLimiter, caller, accountLimitPerMinute);
  const limitPerMinute = caller.key.requestsPerMinute ?? accountLimitPerMinute ?? deps.defaultRequestsPerMinute;
  const decision = await deps.rateLimiter.take({ subject: `key:${caller.key.id}`, limitPerMinute, cost: 1 });
  const headers: RateLimitHeaders = {
    'x-ratelimit-limit-requests': String(limitPerMinute),
    'x-ratelimit-reset-requests': formatResetTime(decision.resetMs),
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

/**
 * An account with a custom limit from the operator also has one budget for all its keys together, so more keys do
 * not mean more requests; its keys without a limit of their own get the account's instead of the default.
 */
async function takeAccountBudget(rateLimiter: RateLimiter, caller: Caller, limitPerMinute: number): Promise<void> {
  const decision = await rateLimiter.take({ subject: `account:${caller.userId}`, limitPerMinute, cost: 1 });
  if (decision.isAllowed) return;
  throw new RateLimitError(
    `Rate limit reached for this account: ${limitPerMinute} requests per minute over all its keys. Retry after the time in Retry-After.`,
    {
      retryAfterSeconds: decision.retryAfterMs / 1000,
      limitKind: 'requests',
      headers: {
        'x-ratelimit-limit-requests': String(limitPerMinute),
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-requests': formatResetTime(decision.resetMs),
      },
    },
  );
}

/**
 * The tokens-per-minute budgets a call of this caller draws from: the operator's budget for the whole account, if
 * set, and the key's own limit (or, without one, the account's budget as the key's limit too). None: no token limit.
 */
export function findTokenLimits(
  deps: { accountTerms: Pick<AccountTerms, 'tokensPerMinute'> },
  caller: Caller,
): TokenLimit[] {
  const accountLimitPerMinute = deps.accountTerms.tokensPerMinute(caller.userId);
  const keyLimitPerMinute = caller.key.tokensPerMinute ?? accountLimitPerMinute;
  const limits: TokenLimit[] = [];
  if (accountLimitPerMinute !== undefined) {
    limits.push({
      subject: `tokens:account:${caller.userId}`,
      limitPerMinute: accountLimitPerMinute,
      scope: 'account',
    });
  }
  if (keyLimitPerMinute !== undefined) {
    limits.push({ subject: `tokens:key:${caller.key.id}`, limitPerMinute: keyLimitPerMinute, scope: 'key' });
  }
  return limits;
}
