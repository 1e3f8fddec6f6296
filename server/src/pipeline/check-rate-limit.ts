import { InternalError } from '../errors/internal-error.ts';
import { RateLimitError } from '../errors/rate-limit-error.ts';
import { formatResetTime, type RateLimitDecision, type RateLimiter } from '../limits/rate-limiter.ts';
import type { TokenLimit } from '../limits/token-budget.ts';
import { findKeyLimit } from '../limits/account-limits.ts';
import type { AccountTerms } from '../accounts/account-terms.ts';
import type { Caller } from './authenticate.ts';

/** The `x-ratelimit-*` headers OpenAI clients read, for the request budget of the key. */
export type RateLimitHeaders = Record<string, string>;

/**
 * Takes one request from the account's budget (all its keys together), then from the key's: the key's own limit, never
 * above the account's key ceiling (the operator's terms, or the standard). Over either: 429 with `Retry-After`, which
 * SDKs honour. Both in one step (one Redis round trip); the key's budget is not touched when the account's refuses.
 */
export async function checkRateLimit(
  deps: { rateLimiter: RateLimiter; accountTerms: Pick<AccountTerms, 'limitsOf'> },
  caller: Caller,
): Promise<RateLimitHeaders> {
  const limits = deps.accountTerms.limitsOf(caller.userId);
  const accountLimitPerMinute = limits.accountRequestsPerMinute;
  const limitPerMinute = findKeyLimit(caller.key.requestsPerMinute, limits.keyRequestsPerMinute);
  const [accountDecision, decision] = await deps.rateLimiter.takeInOrder([
    { subject: `account:${caller.userId}`, limitPerMinute: accountLimitPerMinute, cost: 1 },
    { subject: `key:${caller.key.id}`, limitPerMinute, cost: 1 },
  ]);
  if (!accountDecision?.isAllowed) refuseAccount(accountDecision, accountLimitPerMinute);
  if (!decision) throw new InternalError('The rate limiter skipped the key budget of an allowed account.');
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

/** One budget for all of an account's keys together, so more keys do not mean more requests. */
function refuseAccount(decision: RateLimitDecision | undefined, limitPerMinute: number): never {
  if (!decision || decision.isAllowed)
    throw new InternalError('The rate limiter gave no decision for the account budget.');
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
 * The tokens-per-minute budgets a call of this caller draws from: the account's (all its keys together), if one
 * applies, and the key's (its own limit, never above the account's key ceiling). None: no token limit.
 */
export function findTokenLimits(deps: { accountTerms: Pick<AccountTerms, 'limitsOf'> }, caller: Caller): TokenLimit[] {
  const limits = deps.accountTerms.limitsOf(caller.userId);
  const keyLimitPerMinute = findKeyLimit(caller.key.tokensPerMinute, limits.keyTokensPerMinute);
  const tokenLimits: TokenLimit[] = [];
  if (limits.accountTokensPerMinute !== undefined) {
    tokenLimits.push({
      subject: `tokens:account:${caller.userId}`,
      limitPerMinute: limits.accountTokensPerMinute,
      scope: 'account',
    });
  }
  if (keyLimitPerMinute !== undefined) {
    tokenLimits.push({ subject: `tokens:key:${caller.key.id}`, limitPerMinute: keyLimitPerMinute, scope: 'key' });
  }
  return tokenLimits;
}
