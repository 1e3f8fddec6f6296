import { InsufficientCreditsError } from '../errors/insufficient-credits-error.ts';
import type { Clock } from '../lib/clock.ts';
import { formatUsd } from '../lib/money.ts';
import { keyBudgetsOf, type BudgetShare, type SpendBudgets } from '../limits/spend-budgets.ts';
import type { Caller } from './authenticate.ts';

/**
 * Sets aside the call's share of its key's day and month budgets (none: undefined), or refuses it up front with 402
 * `key_budget_exceeded`, naming the budget and when it starts afresh. 402 rather than 429: SDKs retry a 429 on their
 * own, and this one does not clear until midnight UTC (or the month's end).
 */
export async function takeKeyBudgetShare(
  deps: { spendBudgets: SpendBudgets; clock: Pick<Clock, 'nowMs'> },
  input: { caller: Caller; shareId: string; desiredMicros: number; minimumMicros: number },
): Promise<BudgetShare | undefined> {
  const { key } = input.caller;
  const nowMs = deps.clock.nowMs();
  const budgets = keyBudgetsOf(key, nowMs);
  if (budgets.length === 0) return undefined;
  const taken = await deps.spendBudgets.take({
    keyId: key.id,
    shareId: input.shareId,
    budgets,
    desiredMicros: input.desiredMicros,
    minimumMicros: input.minimumMicros,
    nowMs,
  });
  if ('share' in taken) return taken.share;
  const { window, budgetMicros, endsAtMs } = taken.refusal;
  const name = window === 'day' ? 'daily' : 'monthly';
  throw new InsufficientCreditsError(
    `This API key has reached its ${name} budget of ${formatUsd(budgetMicros)} USD (this request would pass it). The budget starts afresh at ${new Date(endsAtMs).toISOString()}; change it by creating a key with another budget.`,
    { code: 'key_budget_exceeded' },
  );
}
