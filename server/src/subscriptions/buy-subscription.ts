import type { BuySubscriptionRequest, SubscriptionPurchase } from '../../../contract/subscriptions.ts';
import type { CreditHolds } from '../billing/credit-holds.ts';
import type { SubscriptionRow } from '../db/schema.ts';
import { userLedgerAccount } from '../db/ledger.ts';
import { findLedgerTransactionByKey } from '../db/ledger-transaction-lookup.ts';
import { findSubscriptionPlan } from '../db/subscription-plans.ts';
import { commitSubscriptionPayment } from '../db/subscriptions.ts';
import { findUserById } from '../db/users.ts';
import { ConflictError } from '../errors/conflict-error.ts';
import { InsufficientCreditsError } from '../errors/insufficient-credits-error.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import type { IdGenerator } from '../lib/ids.ts';
import { formatUsd, microsToUsd } from '../lib/money.ts';
import type { AccountTerms } from '../accounts/account-terms.ts';
import { getAccountSubscription, type AccountSubscriptionDeps } from './get-account-subscription.ts';
import { subscriptionPeriodMs } from './to-subscription-view.ts';

export type BuySubscriptionDeps = AccountSubscriptionDeps & {
  ids: IdGenerator;
  creditHolds: CreditHolds;
  accountTerms: Pick<AccountTerms, 'accountDiscountPercent' | 'reload'>;
};

/** The ledger account that subscription payments are credited to. */
export const subscriptionRevenueAccount = 'system:subscriptions';

/**
 * Buys a 30-day period of a plan from the balance, once per `purchase_id`. The price is held like a call's cost
 * first (so calls in flight and the purchase cannot overdraw together), then debited through the ledger together
 * with the subscription. Buying the plan that is running extends it by 30 days; another plan while one runs is a
 * 409. A balance that does not cover the price is a 402 and changes nothing.
 */
export async function buySubscription(
  deps: BuySubscriptionDeps,
  input: { userId: string; request: BuySubscriptionRequest },
): Promise<SubscriptionPurchase> {
  const { userId, request } = input;
  const plan = await findSubscriptionPlan(deps.db, request.plan_id);
  if (!plan || plan.is_active !== 1) {
    throw new NotFoundError(`There is no plan \`${request.plan_id}\` on sale.`, { param: 'plan_id' });
  }
  const idempotencyKey = `subscription:${userId}:${request.purchase_id}`;
  if (await findLedgerTransactionByKey(deps.db, idempotencyKey)) return describePurchase(deps, userId, false);
  const nowMs = deps.clock.nowMs();
  const hold = await deps.creditHolds.reserve({
    userId,
    holdId: `subscription:${request.purchase_id}`,
    desiredMicros: plan.price_micros,
    minimumMicros: plan.price_micros,
  });
  if (!hold) throw insufficientBalance(plan.price_micros, await deps.creditHolds.availableMicros(userId));
  const nextPeriod = (current: SubscriptionRow | undefined): SubscriptionRow | undefined => {
    const isRunning = current !== undefined && current.expires_at > nowMs;
    if (isRunning && current.plan_id !== plan.id) return undefined;
    const startsAt = isRunning ? current.period_started_at : nowMs;
    return {
      user_id: userId,
      plan_id: plan.id,
      discount_basis_points: plan.discount_basis_points,
      period_started_at: startsAt,
      expires_at: (isRunning ? current.expires_at : nowMs) + subscriptionPeriodMs,
      is_auto_renewing:
        request.auto_renew === undefined ? (current?.is_auto_renewing ?? 0) : Number(request.auto_renew),
      renewal_failure: null,
      updated_at: nowMs,
    };
  };
  let result;
  try {
    result = await commitSubscriptionPayment(deps.db, {
      userId,
      nextPeriod,
      ledger: {
        id: deps.ids.newId('ltx_'),
        idempotencyKey,
        kind: 'subscription',
        reason: `subscription ${plan.name} (${plan.id})`,
        createdAt: nowMs,
        entries: [
          { account: userLedgerAccount(userId), amountMicros: -plan.price_micros },
          { account: subscriptionRevenueAccount, amountMicros: plan.price_micros },
        ],
      },
    });
  } catch (error) {
    await deps.creditHolds.release(hold);
    throw error;
  }
  if (result.outcome === 'committed') await deps.creditHolds.settleCommitted(hold);
  else await deps.creditHolds.release(hold);
  if (result.outcome === 'insufficient_balance') {
    throw insufficientBalance(plan.price_micros, await deps.creditHolds.availableMicros(userId));
  }
  if (result.outcome === 'stale') {
    throw new ConflictError('Another plan is running on this account; a different plan can be bought when it ends.', {
      code: 'subscription_running',
      param: 'plan_id',
    });
  }
  if (result.outcome === 'committed') await deps.accountTerms.reload();
  return describePurchase(deps, userId, result.outcome === 'committed');
}

async function describePurchase(
  deps: BuySubscriptionDeps,
  userId: string,
  isNew: boolean,
): Promise<SubscriptionPurchase> {
  const user = await findUserById(deps.db, userId);
  return {
    ...(await getAccountSubscription(deps, userId)),
    is_new: isNew,
    balance_usd: microsToUsd(user?.balance_micros ?? 0),
  };
}

function insufficientBalance(priceMicros: number, availableMicros: number): InsufficientCreditsError {
  return new InsufficientCreditsError(
    `Your balance (${formatUsd(Math.max(availableMicros, 0))} USD available) does not cover this plan (${formatUsd(priceMicros)} USD). Top up your balance to continue.`,
  );
}
