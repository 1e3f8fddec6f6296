import type { AccountTerms } from '../accounts/account-terms.ts';
import { RateLimitError } from '../errors/rate-limit-error.ts';
import type { ConcurrencyLimiter } from '../limits/concurrency-limiter.ts';
import type { Caller } from './authenticate.ts';

export type TakeCallSlotDeps = {
  concurrencyLimiter: ConcurrencyLimiter;
  accountTerms: Pick<AccountTerms, 'limitsOf'>;
};

/**
 * Takes one of the account's slots for concurrent calls (over all its keys), held until the returned object is
 * disposed of, when the answer has ended. None left: 429, retry in a second.
 */
export async function takeCallSlot(
  deps: TakeCallSlotDeps,
  input: { caller: Caller; requestId: string },
): Promise<AsyncDisposable> {
  const limit = deps.accountTerms.limitsOf(input.caller.userId).accountConcurrentRequests;
  const slot = { subject: `account:${input.caller.userId}`, slotId: input.requestId };
  if (!(await deps.concurrencyLimiter.acquire({ ...slot, limit }))) {
    throw new RateLimitError(
      `Too many concurrent requests for this account: at most ${limit} at once over all its keys. Retry when one has finished.`,
      { retryAfterSeconds: 1, limitKind: 'requests' },
    );
  }
  return {
    // A release that fails (Redis away) leaves the slot to lapse with its lease. Not awaited: the release leaves now,
    // before the answer does (so the caller's next call, on this node, reaches Redis after it), and a non-streamed
    // answer, sent once the handler returns, need not wait a Redis round trip for it.
    [Symbol.asyncDispose]: async () => {
      void deps.concurrencyLimiter.release(slot).catch(() => undefined);
    },
  };
}
