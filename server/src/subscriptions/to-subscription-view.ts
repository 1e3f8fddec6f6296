import type { SubscriptionPlan, Subscription } from '../../../contract/subscriptions.ts';
import type { SubscriptionPlanRow, SubscriptionRow } from '../db/schema.ts';
import { microsToUsd } from '../lib/money.ts';

/** Every plan runs for this many days from its purchase or renewal. */
export const subscriptionPeriodDays = 30;
export const subscriptionPeriodMs = subscriptionPeriodDays * 86_400_000;

export function toPlanView(plan: SubscriptionPlanRow): SubscriptionPlan {
  return {
    id: plan.id,
    name: plan.name,
    price_usd: microsToUsd(plan.price_micros),
    discount_percent: plan.discount_basis_points / 100,
    period_days: subscriptionPeriodDays,
    is_active: plan.is_active === 1,
    created_at: new Date(plan.created_at).toISOString(),
    updated_at: new Date(plan.updated_at).toISOString(),
  };
}

export function toSubscriptionView(
  subscription: SubscriptionRow,
  input: { planName: string; nowMs: number },
): Subscription {
  return {
    plan_id: subscription.plan_id,
    plan_name: input.planName,
    discount_percent: subscription.discount_basis_points / 100,
    period_started_at: new Date(subscription.period_started_at).toISOString(),
    expires_at: new Date(subscription.expires_at).toISOString(),
    is_active: subscription.expires_at > input.nowMs,
    is_auto_renewing: subscription.is_auto_renewing === 1,
    renewal_failure: subscription.renewal_failure,
  };
}
