import type { RenewalRun } from '../../../contract/subscriptions.ts';
import type { CreditHolds } from '../billing/credit-holds.ts';
import type { Database } from '../db/database.ts';
import { userLedgerAccount } from '../db/ledger.ts';
import type { SubscriptionRow } from '../db/schema.ts';
import { findSubscriptionPlan } from '../db/subscription-plans.ts';
import { commitSubscriptionPayment, listDueRenewals, recordRenewalFailure } from '../db/subscriptions.ts';
import type { Clock } from '../lib/clock.ts';
import type { IdGenerator } from '../lib/ids.ts';
import { formatUsd } from '../lib/money.ts';
import type { AccountTerms } from '../accounts/account-terms.ts';
import { subscriptionRevenueAccount } from './buy-subscription.ts';
import { subscriptionPeriodMs } from './to-subscription-view.ts';

export type RenewSubscriptionsDeps = {
  db: Database;
  clock: Clock;
  ids: IdGenerator;
  creditHolds: CreditHolds;
  accountTerms: Pick<AccountTerms, 'reload'>;
};

const batchSize = 100;

/**
 * Renews every auto-renewing subscription whose period has ended: a new 30-day period from now at the plan's
 * current price and discount, paid from the balance. Idempotent per period (the ledger key names the period that
 * ended), so running it on several nodes at once, or twice, pays once. When the plan is off sale or the balance does
 * not cover it, auto-renewal is switched off and the reason recorded for the account to see.
 */
export async function renewSubscriptions(deps: RenewSubscriptionsDeps): Promise<RenewalRun> {
  const run: RenewalRun = { renewed: 0, failed: 0 };
  const due = await listDueRenewals(deps.db, { nowMs: deps.clock.nowMs(), limit: batchSize });
  for (const subscription of due) {
    const outcome = await renewOne(deps, subscription);
    if (outcome === 'renewed') run.renewed += 1;
    if (outcome === 'failed') run.failed += 1;
  }
  if (run.renewed + run.failed > 0) await deps.accountTerms.reload();
  return run;
}

async function renewOne(deps: RenewSubscriptionsDeps, due: SubscriptionRow): Promise<'renewed' | 'failed' | 'skipped'> {
  const nowMs = deps.clock.nowMs();
  const fail = async (failure: string) => {
    await recordRenewalFailure(deps.db, { userId: due.user_id, expiresAt: due.expires_at, failure, updatedAt: nowMs });
    return 'failed' as const;
  };
  const plan = await findSubscriptionPlan(deps.db, due.plan_id);
  if (!plan || plan.is_active !== 1) return fail('The plan is no longer on sale.');
  const shortOfBalance = `The balance did not cover the renewal (${formatUsd(plan.price_micros)} USD).`;
  const hold = await deps.creditHolds.reserve({
    userId: due.user_id,
    holdId: `subscription-renewal:${due.user_id}:${due.expires_at}`,
    desiredMicros: plan.price_micros,
    minimumMicros: plan.price_micros,
  });
  if (!hold) return fail(shortOfBalance);
  let result;
  try {
    result = await commitSubscriptionPayment(deps.db, {
      userId: due.user_id,
      nextPeriod: (current) =>
        current?.expires_at === due.expires_at && current.is_auto_renewing === 1 && current.plan_id === plan.id
          ? {
              ...current,
              discount_basis_points: plan.discount_basis_points,
              period_started_at: nowMs,
              expires_at: nowMs + subscriptionPeriodMs,
              renewal_failure: null,
              updated_at: nowMs,
            }
          : undefined,
      ledger: {
        id: deps.ids.newId('ltx_'),
        idempotencyKey: `subscription-renewal:${due.user_id}:${due.expires_at}`,
        kind: 'subscription',
        reason: `subscription ${plan.name} (${plan.id}) renewed`,
        createdAt: nowMs,
        entries: [
          { account: userLedgerAccount(due.user_id), amountMicros: -plan.price_micros },
          { account: subscriptionRevenueAccount, amountMicros: plan.price_micros },
        ],
      },
    });
  } catch (error) {
    await deps.creditHolds.release(hold);
    throw error;
  }
  if (result.outcome === 'committed') {
    await deps.creditHolds.settleCommitted(hold);
    return 'renewed';
  }
  await deps.creditHolds.release(hold);
  if (result.outcome === 'insufficient_balance') return fail(shortOfBalance);
  return 'skipped';
}
