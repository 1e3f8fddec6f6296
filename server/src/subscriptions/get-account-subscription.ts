import type { AccountSubscription } from '../../../contract/subscriptions.ts';
import type { Database } from '../db/database.ts';
import { findSubscriptionPlan, listSubscriptionPlans } from '../db/subscription-plans.ts';
import { findSubscription } from '../db/subscriptions.ts';
import type { Clock } from '../lib/clock.ts';
import type { AccountTerms } from '../accounts/account-terms.ts';
import { toPlanView, toSubscriptionView } from './to-subscription-view.ts';

export type AccountSubscriptionDeps = {
  db: Database;
  clock: Clock;
  accountTerms: Pick<AccountTerms, 'accountDiscountPercent'>;
};

/** The account's subscription, the discount its prices get now, and the plans on sale. */
export async function getAccountSubscription(
  deps: AccountSubscriptionDeps,
  userId: string,
): Promise<AccountSubscription> {
  const [subscription, plans] = await Promise.all([
    findSubscription(deps.db, userId),
    listSubscriptionPlans(deps.db, { isActiveOnly: true }),
  ]);
  const plan = subscription && (await findSubscriptionPlan(deps.db, subscription.plan_id));
  return {
    subscription:
      subscription && plan
        ? toSubscriptionView(subscription, { planName: plan.name, nowMs: deps.clock.nowMs() })
        : null,
    discount_percent: deps.accountTerms.accountDiscountPercent(userId),
    plans: plans.map(toPlanView),
  };
}
