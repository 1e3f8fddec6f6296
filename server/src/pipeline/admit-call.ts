import type { RateLimiter } from '../limits/rate-limiter.ts';
import type { Caller } from './authenticate.ts';
import { checkRateLimit, type RateLimitHeaders } from './check-rate-limit.ts';
import { takeCallSlot, type TakeCallSlotDeps } from './take-call-slot.ts';

export type AdmitCallDeps = TakeCallSlotDeps & { rateLimiter: RateLimiter };

/**
 * A call's request budgets and concurrency slot, asked for when the call takes its credit: `admit` is called by the
 * credit hold in the same event-loop turn as the hold and the token budgets, so with Redis all of them leave in one
 * write and come back in one round trip. Disposing of it gives the slot back (when the answer has ended).
 */
export type Admission = AsyncDisposable & {
  /** Asks for the budgets and the slot, once (later calls share the answer); rejects with their 429. */
  admit: () => Promise<void>;
  /**
   * What a failed call answers with: the admission's refusal when there is one (asked for now if the call failed
   * before taking credit: a bad request), else `error`. So a refusal wins over any other error, as when the budgets
   * were asked for before the request was read, and every call counts against the request budgets as before.
   */
  refusalOr: (error: unknown) => Promise<unknown>;
};

/**
 * Opens the admission of a call; nothing is asked for until `admit` or `refusalOr`. The outcome is as if taken in turn:
 * over a request budget, its 429 wins and a slot taken beside it is given back at once; a refused slot still counts
 * against the request budgets. The budgets' `x-ratelimit-*` headers go out with the answer, a refusal of the slot
 * included.
 */
export function admitCall(
  deps: AdmitCallDeps,
  input: {
    caller: Caller;
    requestId: string;
    setHeaders: (headers: RateLimitHeaders) => void;
  },
): Admission {
  let admitted: Promise<void> | undefined;
  let slot: AsyncDisposable | undefined;
  const ask = async () => {
    const [budgets, taken] = await Promise.allSettled([
      checkRateLimit(deps, input.caller),
      takeCallSlot(deps, { caller: input.caller, requestId: input.requestId }),
    ]);
    if (budgets.status === 'rejected') {
      if (taken.status === 'fulfilled') await taken.value?.[Symbol.asyncDispose]();
      throw budgets.reason;
    }
    input.setHeaders(budgets.value);
    if (taken.status === 'rejected') throw taken.reason;
    slot = taken.value;
  };
  const admit = () => {
    if (!admitted) {
      admitted = ask();
      // Its callers await it; this keeps a refusal seen only by `refusalOr` from counting as unhandled meanwhile.
      admitted.catch(() => undefined);
    }
    return admitted;
  };
  return {
    admit,
    refusalOr: async (error) => {
      try {
        await admit();
        return error;
      } catch (refusal) {
        return refusal;
      }
    },
    [Symbol.asyncDispose]: async () => {
      await admitted?.catch(() => undefined);
      await slot?.[Symbol.asyncDispose]();
    },
  };
}
