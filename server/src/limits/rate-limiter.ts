/**
 * Rate limits by GCRA (generic cell rate algorithm): one number per limited subject, the theoretical arrival time,
 * so a check is O(1) in memory or one Redis round trip. A limit of N per minute admits bursts of up to N. The units
 * are requests or tokens: a take of `cost` units moves the arrival time by `cost` intervals.
 */
export type RateLimitDecision =
  { isAllowed: true; remaining: number; resetMs: number } | { isAllowed: false; retryAfterMs: number; resetMs: number };

export type RateLimitTake = { subject: string; limitPerMinute: number; cost: number };

export type RateLimiter = {
  /** Takes `cost` units from `subject`'s budget of `limitPerMinute`, or says how long to wait. */
  take: (input: RateLimitTake) => Promise<RateLimitDecision>;
  /**
   * `take` from each budget in order, stopping at the first that refuses: one decision per budget asked, the last
   * one the refusal if any (later budgets are not touched, and earlier ones stay taken, as with separate takes). One
   * Redis round trip for all of them.
   */
  takeInOrder: (inputs: readonly RateLimitTake[]) => Promise<RateLimitDecision[]>;
  /**
   * Corrects a take once the real count is known, without refusing: a positive `delta` takes more and may leave the
   * budget in debt (later takes wait until it is paid off); a negative one gives units back, up to a full budget.
   */
  adjust: (input: { subject: string; limitPerMinute: number; delta: number }) => Promise<void>;
};

const windowMs = 60_000;

/** The pure GCRA step shared by the memory and Redis limiters (the Lua script mirrors it). */
export function stepGcra(input: {
  nowMs: number;
  theoreticalArrivalMs: number | undefined;
  limitPerMinute: number;
  cost: number;
}): { decision: RateLimitDecision; theoreticalArrivalMs: number | undefined } {
  const intervalMs = windowMs / input.limitPerMinute;
  const burstMs = windowMs;
  const base = Math.max(input.theoreticalArrivalMs ?? input.nowMs, input.nowMs);
  const next = base + intervalMs * input.cost;
  const allowAtMs = next - burstMs;
  if (allowAtMs > input.nowMs) {
    return {
      decision: { isAllowed: false, retryAfterMs: allowAtMs - input.nowMs, resetMs: base - input.nowMs },
      theoreticalArrivalMs: input.theoreticalArrivalMs,
    };
  }
  const remaining = Math.floor((burstMs - (next - input.nowMs)) / intervalMs);
  return {
    decision: { isAllowed: true, remaining: Math.max(0, remaining), resetMs: next - input.nowMs },
    theoreticalArrivalMs: next,
  };
}

/** The pure correction shared by the memory and Redis limiters: undefined when the budget is full again. */
export function adjustGcra(input: {
  nowMs: number;
  theoreticalArrivalMs: number | undefined;
  limitPerMinute: number;
  delta: number;
}): number | undefined {
  const base = Math.max(input.theoreticalArrivalMs ?? input.nowMs, input.nowMs);
  const next = base + (windowMs / input.limitPerMinute) * input.delta;
  return next > input.nowMs ? next : undefined;
}

/** Limits held in this process: right for a single node. */
export function createMemoryRateLimiter(deps: { nowMs: () => number }): RateLimiter {
  const arrivals = new Map<string, number>();
  let lastSweepMs = 0;
  const sweep = (nowMs: number) => {
    if (nowMs - lastSweepMs <= windowMs) return;
    for (const [subject, arrival] of arrivals) if (arrival < nowMs) arrivals.delete(subject);
    lastSweepMs = nowMs;
  };
  const take = (input: RateLimitTake, nowMs: number) => {
    const step = stepGcra({ ...input, nowMs, theoreticalArrivalMs: arrivals.get(input.subject) });
    if (step.theoreticalArrivalMs !== undefined) arrivals.set(input.subject, step.theoreticalArrivalMs);
    return step.decision;
  };
  return {
    take: async (input) => {
      const nowMs = deps.nowMs();
      sweep(nowMs);
      return take(input, nowMs);
    },
    takeInOrder: async (inputs) => {
      const nowMs = deps.nowMs();
      sweep(nowMs);
      const decisions: RateLimitDecision[] = [];
      for (const input of inputs) {
        const decision = take(input, nowMs);
        decisions.push(decision);
        if (!decision.isAllowed) break;
      }
      return decisions;
    },
    adjust: async (input) => {
      const nowMs = deps.nowMs();
      const next = adjustGcra({ ...input, nowMs, theoreticalArrivalMs: arrivals.get(input.subject) });
      if (next === undefined) arrivals.delete(input.subject);
      else arrivals.set(input.subject, next);
    },
  };
}

/** How long until a budget is full again, as OpenAI writes it in `x-ratelimit-reset-*` headers ("12s"). */
export function formatResetTime(resetMs: number): string {
  return `${Math.max(0, Math.ceil(resetMs / 1000))}s`;
}
