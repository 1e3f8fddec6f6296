import type { SubscriptionPlan } from '../../../contract/subscriptions.ts';
import type { Database } from '../db/database.ts';
import { listSubscriptionPlans } from '../db/subscription-plans.ts';
import { toPlanView } from './to-subscription-view.ts';

/** Every plan, on sale or not, as the operator console shows them. */
export async function listSubscriptionPlanViews(deps: { db: Database }): Promise<SubscriptionPlan[]> {
  const plans = await listSubscriptionPlans(deps.db, { isActiveOnly: false });
  return plans.map(toPlanView);
}
