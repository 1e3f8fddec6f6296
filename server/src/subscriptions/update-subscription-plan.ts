import type { SubscriptionPlan, UpdateSubscriptionPlanRequest } from '../../../contract/subscriptions.ts';
import { findSubscriptionPlan, updateSubscriptionPlan as writePlan } from '../db/subscription-plans.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import { parseUsdAmountMicros, percentToBasisPoints } from '../billing/parse-amounts.ts';
import type { PlanDeps } from './create-subscription-plan.ts';
import { toPlanView } from './to-subscription-view.ts';

/**
 * Changes a plan for future purchases and renewals. A running period keeps the discount it was bought with; an
 * inactive plan is no longer sold or renewed.
 */
export async function updateSubscriptionPlan(
  deps: Omit<PlanDeps, 'ids'>,
  input: { planId: string; request: UpdateSubscriptionPlanRequest },
): Promise<SubscriptionPlan> {
  const current = await findSubscriptionPlan(deps.db, input.planId);
  if (!current) throw new NotFoundError(`There is no plan \`${input.planId}\`.`);
  const { request } = input;
  const plan = {
    ...current,
    name: request.name ?? current.name,
    price_micros:
      request.price_usd === undefined ? current.price_micros : parseUsdAmountMicros(request.price_usd, 'price_usd'),
    discount_basis_points:
      request.discount_percent === undefined
        ? current.discount_basis_points
        : percentToBasisPoints(request.discount_percent),
    is_active: request.is_active === undefined ? current.is_active : request.is_active ? 1 : 0,
    updated_at: deps.clock.nowMs(),
  };
  await writePlan(deps.db, plan);
  return toPlanView(plan);
}
