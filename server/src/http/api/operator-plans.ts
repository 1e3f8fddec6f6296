import { createSubscriptionPlan, type PlanDeps } from '../../subscriptions/create-subscription-plan.ts';
import { listSubscriptionPlanViews } from '../../subscriptions/list-subscription-plan-views.ts';
import { renewSubscriptions, type RenewSubscriptionsDeps } from '../../subscriptions/renew-subscriptions.ts';
import { updateSubscriptionPlan } from '../../subscriptions/update-subscription-plan.ts';
import { percentToBasisPoints } from '../../billing/parse-amounts.ts';
import type { RouteTable } from '../../catalog/route-table.ts';
import { checkDiscountAboveCost } from '../../operator/model-route-costs.ts';
import type { Routing } from '../../routing/create-routing.ts';
import type { ApiHandlers } from './endpoint-handler.ts';
import { liveRouteCosts } from './operator-models.ts';

export type OperatorPlanHandlerDeps = PlanDeps & RenewSubscriptionsDeps & { routeTable: RouteTable; routing: Routing };

/** Subscription plans (list, create, change) and an on-demand renewal pass. */
export function createOperatorPlanHandlers(
  deps: OperatorPlanHandlerDeps,
): Pick<
  ApiHandlers,
  'listSubscriptionPlans' | 'createSubscriptionPlan' | 'updateSubscriptionPlan' | 'renewSubscriptions'
> {
  return {
    listSubscriptionPlans: async () => {
      return { data: await listSubscriptionPlanViews(deps) };
    },
    createSubscriptionPlan: async ({ body }) => {
      await checkPlanDiscount(deps, body);
      return createSubscriptionPlan(deps, body);
    },
    updateSubscriptionPlan: async ({ params, body }) => {
      await checkPlanDiscount(deps, body);
      return updateSubscriptionPlan(deps, { planId: params.id, request: body });
    },
    renewSubscriptions: async () => renewSubscriptions(deps),
  };
}

/** A plan's discount that would newly sell models below every route's cost needs `confirm_below_cost`. */
async function checkPlanDiscount(
  deps: OperatorPlanHandlerDeps,
  body: { discount_percent?: number | undefined; confirm_below_cost?: boolean | undefined },
): Promise<void> {
  if (body.discount_percent === undefined) return;
  await checkDiscountAboveCost(
    { db: deps.db, nowMs: deps.clock.nowMs(), routeCosts: liveRouteCosts(deps) },
    { discountBasisPoints: percentToBasisPoints(body.discount_percent), isConfirmed: body.confirm_below_cost === true },
  );
}
