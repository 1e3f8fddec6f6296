import { createSubscriptionPlan, type PlanDeps } from '../../subscriptions/create-subscription-plan.ts';
import { listSubscriptionPlanViews } from '../../subscriptions/list-subscription-plan-views.ts';
import { renewSubscriptions, type RenewSubscriptionsDeps } from '../../subscriptions/renew-subscriptions.ts';
import { updateSubscriptionPlan } from '../../subscriptions/update-subscription-plan.ts';
import type { ApiHandlers } from './endpoint-handler.ts';

export type OperatorPlanHandlerDeps = PlanDeps & RenewSubscriptionsDeps;

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
    createSubscriptionPlan: async ({ body }) => createSubscriptionPlan(deps, body),
    updateSubscriptionPlan: async ({ params, body }) =>
      updateSubscriptionPlan(deps, { planId: params.id, request: body }),
    renewSubscriptions: async () => renewSubscriptions(deps),
  };
}
