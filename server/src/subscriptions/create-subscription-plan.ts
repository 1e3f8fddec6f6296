import type { CreateSubscriptionPlanRequest, SubscriptionPlan } from '../../../contract/subscriptions.ts';
import type { Database } from '../db/database.ts';
import { insertSubscriptionPlan } from '../db/subscription-plans.ts';
import type { Clock } from '../lib/clock.ts';
import type { IdGenerator } from '../lib/ids.ts';
import { parseUsdAmountMicros, percentToBasisPoints } from '../billing/parse-amounts.ts';
import { toPlanView } from './to-subscription-view.ts';

export type PlanDeps = { db: Database; clock: Clock; ids: IdGenerator };

/** A new 30-day plan (discount at most 40%, checked by the contract), on sale unless `is_active` is false. */
export async function createSubscriptionPlan(
  deps: PlanDeps,
  request: CreateSubscriptionPlanRequest,
): Promise<SubscriptionPlan> {
  const nowMs = deps.clock.nowMs();
  const plan = {
    id: deps.ids.newId('plan_'),
    name: request.name,
    price_micros: parseUsdAmountMicros(request.price_usd, 'price_usd'),
    discount_basis_points: percentToBasisPoints(request.discount_percent),
    is_active: request.is_active === false ? 0 : 1,
    created_at: nowMs,
    updated_at: nowMs,
  };
  await insertSubscriptionPlan(deps.db, plan);
  return toPlanView(plan);
}
