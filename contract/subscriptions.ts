import { z } from 'zod';

/** A decimal USD amount: a string ("9.99") or a JSON number read as its decimal text; at most six decimals. */
export const usdAmountSchema = z.union([z.string().max(40), z.number()]);

/** A percentage with at most two decimals ("12.5" → 12.5%). */
export const percentSchema = z
  .number()
  .min(0)
  .max(100)
  .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, 'at most two decimals');

/** The most a plan may take off every price, percent. */
export const maxPlanDiscountPercent = 40;

/** A 30-day plan: `discount_percent` off every model's price while it runs, paid from the balance. */
export const subscriptionPlanSchema = z.object({
  id: z.string(),
  name: z.string(),
  price_usd: z.number(),
  discount_percent: z.number(),
  period_days: z.number().int(),
  /** Only active plans can be bought or renewed. */
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SubscriptionPlan = z.infer<typeof subscriptionPlanSchema>;

export const subscriptionPlanListSchema = z.object({ data: z.array(subscriptionPlanSchema) });
export type SubscriptionPlanList = z.infer<typeof subscriptionPlanListSchema>;

/** The account's subscription: the period paid for and the discount it bought (the plan's at purchase time). */
export const subscriptionSchema = z.object({
  plan_id: z.string(),
  plan_name: z.string(),
  discount_percent: z.number(),
  period_started_at: z.string(),
  expires_at: z.string(),
  /** True while the paid period runs. */
  is_active: z.boolean(),
  /** Renewed from the balance when the period ends. */
  is_auto_renewing: z.boolean(),
  /** Why the last automatic renewal failed (auto-renewal is then off), or null. */
  renewal_failure: z.string().nullable(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/**
 * `GET /api/subscription`: the account's subscription (or null), the discount that applies to its prices now (the
 * larger of the plan's and any contract discount), and the plans on sale.
 */
export const accountSubscriptionSchema = z.object({
  subscription: subscriptionSchema.nullable(),
  discount_percent: z.number(),
  plans: z.array(subscriptionPlanSchema),
});
export type AccountSubscription = z.infer<typeof accountSubscriptionSchema>;

/**
 * `POST /api/subscription`: buy (or, with the same plan while it runs, extend by 30 days) from the balance.
 * `purchase_id` is chosen by the client: sending the same one again never pays twice.
 */
export const buySubscriptionRequestSchema = z.object({
  plan_id: z.string().min(1).max(100),
  purchase_id: z.string().regex(/^[A-Za-z0-9_.:-]{8,100}$/, '8 to 100 letters, digits or _ . : -'),
  auto_renew: z.boolean().optional(),
});
export type BuySubscriptionRequest = z.infer<typeof buySubscriptionRequestSchema>;

/** The answer to a purchase: `is_new` is false when this `purchase_id` had already been paid. */
export const subscriptionPurchaseSchema = accountSubscriptionSchema.extend({
  is_new: z.boolean(),
  balance_usd: z.number(),
});
export type SubscriptionPurchase = z.infer<typeof subscriptionPurchaseSchema>;

/** `POST /api/subscription/auto-renew`. */
export const autoRenewRequestSchema = z.object({ auto_renew: z.boolean() });
export type AutoRenewRequest = z.infer<typeof autoRenewRequestSchema>;

/** `POST /api/operator/plans`: a new plan; `discount_percent` at most 40. */
export const createSubscriptionPlanRequestSchema = z.object({
  name: z.string().trim().min(1).max(100),
  price_usd: usdAmountSchema,
  discount_percent: percentSchema.max(maxPlanDiscountPercent),
  is_active: z.boolean().optional(),
  /** Must be true for a discount that newly sells models below the cost of every route (400 `below_cost` else). */
  confirm_below_cost: z.boolean().optional(),
});
export type CreateSubscriptionPlanRequest = z.infer<typeof createSubscriptionPlanRequestSchema>;

/** `POST /api/operator/plans/{id}`: change any of the fields; running subscriptions keep what they bought. */
export const updateSubscriptionPlanRequestSchema = createSubscriptionPlanRequestSchema.partial();
export type UpdateSubscriptionPlanRequest = z.infer<typeof updateSubscriptionPlanRequestSchema>;

/** `POST /api/operator/subscriptions/renew`: what one renewal pass did. */
export const renewalRunSchema = z.object({ renewed: z.number().int(), failed: z.number().int() });
export type RenewalRun = z.infer<typeof renewalRunSchema>;
