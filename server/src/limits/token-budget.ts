import { RateLimitError } from '../errors/rate-limit-error.ts';
import { formatResetTime, type RateLimiter } from './rate-limiter.ts';

/** One tokens-per-minute budget that applies to a call: the account's (all its keys together) or the key's. */
export type TokenLimit = { subject: string; limitPerMinute: number; scope: 'account' | 'key' };

/** Tokens taken from budgets before a call, to be corrected with the real count after it. */
export type TakenTokens = { limits: readonly TokenLimit[]; tokens: number };

/** The `x-ratelimit-*-tokens` headers OpenAI clients read, for the key's budget. */
export type TokenLimitHeaders = Record<string, string>;

/** The most tokens one call may be estimated at: more than the smallest budget could never be admitted. */
export function findLargestAdmissibleTokens(limits: readonly TokenLimit[]): number | undefined {
  return limits.length === 0 ? undefined : Math.min(...limits.map((limit) => limit.limitPerMinute));
}

/**
 * Takes a call's estimated tokens from every budget that applies (the account's first), or refuses with 429,
 * `Retry-After` and the token headers, giving back what it took from the budgets before the one that refused.
 */
export async function takeTokens(
  deps: { rateLimiter: RateLimiter },
  input: { limits: readonly TokenLimit[]; tokens: number },
): Promise<{ taken: TakenTokens; headers: TokenLimitHeaders }> {
  let headers: TokenLimitHeaders = {};
  const takenFrom: TokenLimit[] = [];
  const decisions = await deps.rateLimiter.takeInOrder(
    input.limits.map((limit) => ({ subject: limit.subject, limitPerMinute: limit.limitPerMinute, cost: input.tokens })),
  );
  for (const [index, decision] of decisions.entries()) {
    const limit = input.limits[index]!;
    const limitHeaders = {
      'x-ratelimit-limit-tokens': String(limit.limitPerMinute),
      'x-ratelimit-remaining-tokens': decision.isAllowed ? String(decision.remaining) : '0',
      'x-ratelimit-reset-tokens': formatResetTime(decision.resetMs),
    };
    if (!decision.isAllowed) {
      await settleTokens(deps, { limits: takenFrom, tokens: input.tokens }, 0);
      throw new RateLimitError(describeRefusal(limit, input.tokens), {
        retryAfterSeconds: decision.retryAfterMs / 1000,
        limitKind: 'tokens',
        headers: limitHeaders,
      });
    }
    takenFrom.push(limit);
    headers = limitHeaders;
  }
  return { taken: { limits: takenFrom, tokens: input.tokens }, headers };
}

/**
 * Replaces the estimate a call was admitted with by its real token count (0 when it failed before the vendor billed
 * anything). A count above the estimate leaves the budgets in debt, so the next calls wait for it.
 */
export async function settleTokens(
  deps: { rateLimiter: RateLimiter },
  taken: TakenTokens,
  actualTokens: number,
): Promise<void> {
  const delta = actualTokens - taken.tokens;
  if (delta === 0) return;
  // Sent together (the commands leave in this turn, in order), so a later call's take comes after every correction.
  await Promise.all(
    taken.limits.map((limit) =>
      deps.rateLimiter.adjust({ subject: limit.subject, limitPerMinute: limit.limitPerMinute, delta }),
    ),
  );
}

/**
 * A 429 for a call whose input alone exceeds a budget: waiting cannot help, so it says what to reduce; `Retry-After`
 * is a full window, when the budget is whole again.
 */
export function refuseOversizedCall(limit: TokenLimit, estimatedInputTokens: number): RateLimitError {
  return new RateLimitError(
    `Request too large: its input is about ${estimatedInputTokens} tokens, over the limit of ${limit.limitPerMinute} tokens per minute for this ${limit.scope === 'key' ? 'API key' : 'account'}. Reduce the input to run it.`,
    {
      retryAfterSeconds: 60,
      limitKind: 'tokens',
      headers: {
        'x-ratelimit-limit-tokens': String(limit.limitPerMinute),
        'x-ratelimit-remaining-tokens': '0',
        'x-ratelimit-reset-tokens': formatResetTime(60_000),
      },
    },
  );
}

function describeRefusal(limit: TokenLimit, tokens: number): string {
  const owner = limit.scope === 'key' ? 'this API key' : 'this account, over all its keys';
  return `Rate limit reached for ${owner}: ${limit.limitPerMinute} tokens per minute; this request needs about ${tokens} (its input and its output limit). Retry after the time in Retry-After, or lower max_completion_tokens.`;
}
