/**
 * A key's spend budgets per UTC day and per UTC month. A call sets aside a share of what every budget of its key
 * leaves (budget − spent in the period − shares of calls in flight) in one atomic step, like the lifetime cap
 * (`spend-cap-holds.ts`), so calls started together cannot pass a budget between them; a finished call turns its
 * share into what it was charged. A call counts in the period it started in: one that runs past midnight UTC is
 * charged to the day it began. Periods are named by their UTC date, so a new day or month starts from nothing.
 */
export type BudgetWindow = 'day' | 'month';

/** One budget of a key and what this node knows the key spent in its current period (the larger figure wins). */
export type KeyBudget = { window: BudgetWindow; budgetMicros: number; spentMicros: number };

/** What a call set aside of its key's budgets, to give back with `finish`. */
export type BudgetShare = {
  keyId: string;
  shareId: string;
  periods: readonly { window: BudgetWindow; periodId: string; endsAtMs: number }[];
  micros: number;
};

/** The budget that left less than the call's minimum, and when its period ends. */
export type BudgetRefusal = { window: BudgetWindow; budgetMicros: number; endsAtMs: number };

export type TakeBudgetShareInput = {
  keyId: string;
  shareId: string;
  budgets: readonly KeyBudget[];
  desiredMicros: number;
  minimumMicros: number;
  nowMs: number;
};

export type SpendBudgets = {
  /** Sets aside up to `desiredMicros` (at least `minimumMicros`) of every budget, or names the one that refuses. */
  take: (input: TakeBudgetShareInput) => Promise<{ share: BudgetShare } | { refusal: BudgetRefusal }>;
  /** Gives back a share once the call's charge (0 when it failed) is counted in its periods. */
  finish: (input: { share: BudgetShare; chargedMicros: number }) => Promise<void>;
};

/** The UTC day (`2026-11-27`) or month (`2026-11`) holding `nowMs`, and the instants it starts and ends. */
export function budgetPeriodOf(
  window: BudgetWindow,
  nowMs: number,
): { periodId: string; startsAtMs: number; endsAtMs: number } {
  const now = new Date(nowMs);
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  if (window === 'month') {
    const periodId = now.toISOString().slice(0, 7);
    return { periodId, startsAtMs: Date.UTC(year, month, 1), endsAtMs: Date.UTC(year, month + 1, 1) };
  }
  const day = now.getUTCDate();
  const periodId = now.toISOString().slice(0, 10);
  return { periodId, startsAtMs: Date.UTC(year, month, day), endsAtMs: Date.UTC(year, month, day + 1) };
}

/** Budgets kept in this process: right for a single node, where a crash ends every call with it. */
export function createMemorySpendBudgets(): SpendBudgets {
  const periods = new Map<string, { spentMicros: number; shares: Map<string, number> }>();
  const entryOf = (keyId: string, periodId: string) => {
    const name = `${keyId}:${periodId}`;
    const entry = periods.get(name) ?? { spentMicros: 0, shares: new Map<string, number>() };
    periods.set(name, entry);
    return entry;
  };
  const dropEnded = (nowMs: number) => {
    // Day and month ids differ in length, so a key's current periods are exactly those named now.
    const current = new Set((['day', 'month'] as const).map((window) => budgetPeriodOf(window, nowMs).periodId));
    for (const name of periods.keys()) if (!current.has(name.slice(name.lastIndexOf(':') + 1))) periods.delete(name);
  };
  return {
    take: async (input) => {
      dropEnded(input.nowMs);
      let micros = input.desiredMicros;
      const taken: BudgetShare['periods'][number][] = [];
      for (const budget of input.budgets) {
        const period = budgetPeriodOf(budget.window, input.nowMs);
        const entry = entryOf(input.keyId, period.periodId);
        entry.spentMicros = Math.max(entry.spentMicros, budget.spentMicros);
        const heldMicros = [...entry.shares.values()].reduce((sum, share) => sum + share, 0);
        const leftMicros = budget.budgetMicros - entry.spentMicros - heldMicros;
        if (leftMicros < input.minimumMicros) {
          return { refusal: { window: budget.window, budgetMicros: budget.budgetMicros, endsAtMs: period.endsAtMs } };
        }
        micros = Math.min(micros, leftMicros);
        taken.push({ window: budget.window, ...period });
      }
      for (const period of taken) entryOf(input.keyId, period.periodId).shares.set(input.shareId, micros);
      return { share: { keyId: input.keyId, shareId: input.shareId, periods: taken, micros } };
    },
    finish: async ({ share, chargedMicros }) => {
      for (const period of share.periods) {
        const entry = periods.get(`${share.keyId}:${period.periodId}`);
        if (!entry) continue;
        entry.shares.delete(share.shareId);
        entry.spentMicros += chargedMicros;
      }
    },
  };
}

/** What a key spent in the day and month named: the database's sum when the key was loaded, plus charges since. */
export type PeriodSpend = Record<BudgetWindow, { periodId: string; micros: number }>;

/** What the budgets need of a key (the cached key carries it). */
export type BudgetedKey = {
  dailyBudgetMicros: number | null;
  monthlyBudgetMicros: number | null;
  periodSpend: PeriodSpend;
};

/** The key's budgets with what it spent in the current periods (nothing yet when a period has turned since). */
export function keyBudgetsOf(key: BudgetedKey, nowMs: number): KeyBudget[] {
  const budgets: KeyBudget[] = [];
  const add = (window: BudgetWindow, budgetMicros: number | null) => {
    if (budgetMicros === null) return;
    const known = key.periodSpend[window];
    const spentMicros = known.periodId === budgetPeriodOf(window, nowMs).periodId ? known.micros : 0;
    budgets.push({ window, budgetMicros, spentMicros });
  };
  add('day', key.dailyBudgetMicros);
  add('month', key.monthlyBudgetMicros);
  return budgets;
}

/** Adds a settled charge to the key's spending of the current periods, starting a period afresh when it has turned. */
export function countPeriodSpend(key: BudgetedKey, micros: number, nowMs: number): void {
  for (const window of ['day', 'month'] as const) {
    const { periodId } = budgetPeriodOf(window, nowMs);
    const known = key.periodSpend[window];
    key.periodSpend[window] = { periodId, micros: (known.periodId === periodId ? known.micros : 0) + micros };
  }
}
