import type { RateLimiter } from '../limits/rate-limiter.ts';
import type { Caller } from './authenticate.ts';
import { checkRateLimit, type RateLimitHeaders } from './check-rate-limit.ts';
import { takeCallSlot, type TakeCallSlotDeps } from './take-call-slot.ts';

export type AdmitCallDeps = TakeCallSlotDeps & { rateLimiter: RateLimiter };

/**
 * The request budgets and the concurrency slot, asked for in the same event-loop turn: with Redis both commands leave
 * in one write and come back in one round trip, instead of one round trip each on every call's path (the slot used to
 * wait for the budgets' answer). The outcome is as if taken in turn: over a request budget, its 429 wins and a slot
 * taken beside it is given back at once; a refused slot still counts against the request budgets, as before. The
 * budgets' `x-ratelimit-*` headers go out with the answer, a refusal of the slot included.
 */
export async function admitCall(
  deps: AdmitCallDeps,
  input: { caller: Caller; requestId: string; setHeaders: (headers: RateLimitHeaders) => void },
): Promise<AsyncDisposable> {
  const [budgets, slot] = await Promise.allSettled([
    checkRateLimit(deps, input.caller),
    takeCallSlot(deps, { caller: input.caller, requestId: input.requestId }),
  ]);
  if (budgets.status === 'rejected') {
    if (slot.status === 'fulfilled') await slot.value[Symbol.asyncDispose]();
    throw budgets.reason;
  }
  input.setHeaders(budgets.value);
  if (slot.status === 'rejected') throw slot.reason;
  return slot.value;
}
