import { z } from 'zod';
import { balanceEntrySchema } from './balance.ts';
import { percentSchema, subscriptionSchema, usdAmountSchema } from './subscriptions.ts';
import { usageFilterQuerySchema, usageRecordSchema } from './usage.ts';

/** `GET /api/operator/users`: `email` matches any part of the address, case-insensitive. */
export const operatorUserQuerySchema = z.object({
  email: z.string().trim().min(1).max(254).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
});
export type OperatorUserQuery = z.infer<typeof operatorUserQuerySchema>;

/** An account as the operator sees it: never its password hash or keys. */
export const operatorUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(['user', 'admin']),
  status: z.enum(['active', 'blocked']),
  balance_usd: z.number(),
  created_at: z.string(),
  active_key_count: z.number().int(),
  /** The operator's contract discount, percent (0 when none). */
  contract_discount_percent: z.number(),
  /** The operator's request budget for the whole account per minute, or null for the standard limits. */
  requests_per_minute: z.number().int().nullable(),
  /** The operator's token budget (input plus output) for the whole account per minute, or null for none. */
  tokens_per_minute: z.number().int().nullable(),
  subscription: subscriptionSchema.nullable(),
});
export type OperatorUser = z.infer<typeof operatorUserSchema>;

export const operatorUserListSchema = z.object({ data: z.array(operatorUserSchema), has_more: z.boolean() });
export type OperatorUserList = z.infer<typeof operatorUserListSchema>;

/** An account's own price for one model, in place of the price list's (before any subscription discount). */
export const accountModelPriceSchema = z.object({
  model_id: z.string(),
  input_usd_per_million: z.number(),
  output_usd_per_million: z.number(),
  cached_input_usd_per_million: z.number().nullable(),
  usd_per_request: z.number().nullable(),
  updated_at: z.string(),
});
export type AccountModelPrice = z.infer<typeof accountModelPriceSchema>;

/** `GET /api/operator/users/{id}`: the account, its own model prices and its latest ledger entries. */
export const operatorUserDetailSchema = operatorUserSchema.extend({
  model_prices: z.array(accountModelPriceSchema),
  entries: z.array(balanceEntrySchema),
});
export type OperatorUserDetail = z.infer<typeof operatorUserDetailSchema>;

/** `POST /api/operator/users/{id}/status`: a blocked account's keys and sessions stop working within a second. */
export const userStatusRequestSchema = z.object({ status: z.enum(['active', 'blocked']) });
export type UserStatusRequest = z.infer<typeof userStatusRequestSchema>;

/**
 * `POST /api/operator/users/{id}/adjustments`: credit or debit the balance through the ledger. `amount_micros` is a
 * positive whole number of micro-USD (1 USD = 1,000,000); the direction says which way. `idempotency_key` makes a
 * retry safe: the same key never posts twice. Without it each request is a new adjustment.
 */
/**
 * The largest amount one adjustment moves, and the largest balance it may leave: one billion USD. Far below 2^53
 * micro-USD, so sums of balances and holds stay exact integers in JavaScript and in the database.
 */
export const maxAdjustmentMicros = 1_000_000_000_000_000;

export const balanceAdjustmentRequestSchema = z.object({
  direction: z.enum(['credit', 'debit']),
  amount_micros: z
    .number({ error: 'must be a whole number of micro-USD (1 USD = 1000000)' })
    .int({ error: 'must be a whole number of micro-USD (1 USD = 1000000)' })
    .positive({ error: 'must be greater than zero; use `direction` to debit' })
    .max(maxAdjustmentMicros, { error: 'must be at most 1000000000000000 (one billion USD)' }),
  reason: z.string().trim().min(1).max(500),
  idempotency_key: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,100}$/, '1 to 100 letters, digits or _ . : -')
    .optional(),
});
export type BalanceAdjustmentRequest = z.infer<typeof balanceAdjustmentRequestSchema>;

/** The answer to an adjustment: `is_new` is false when the idempotency key had already been posted. */
export const balanceAdjustmentSchema = z.object({
  transaction_id: z.string(),
  idempotency_key: z.string(),
  is_new: z.boolean(),
  amount_usd: z.number(),
  balance_usd: z.number(),
});
export type BalanceAdjustment = z.infer<typeof balanceAdjustmentSchema>;

/**
 * `POST /api/operator/users/{id}/terms`: the contract discount (percent) and the account's request and token budgets
 * per minute (null or, for tokens, omitted: none).
 */
export const accountTermsRequestSchema = z.object({
  contract_discount_percent: percentSchema,
  requests_per_minute: z.number().int().min(1).max(1_000_000).nullable(),
  tokens_per_minute: z.number().int().min(1).max(1_000_000_000).nullable().optional(),
  /** Must be true for a discount that newly sells models below the cost of every route (400 `below_cost` else). */
  confirm_below_cost: z.boolean().optional(),
});
export type AccountTermsRequest = z.infer<typeof accountTermsRequestSchema>;

/** `POST /api/operator/users/{id}/model-prices`: set the account's own price of one model (USD decimals). */
export const accountModelPriceRequestSchema = z.object({
  model_id: z.string().min(1).max(200),
  input_usd_per_million: usdAmountSchema,
  output_usd_per_million: usdAmountSchema,
  cached_input_usd_per_million: usdAmountSchema.nullable().optional(),
  usd_per_request: usdAmountSchema.nullable().optional(),
});
export type AccountModelPriceRequest = z.infer<typeof accountModelPriceRequestSchema>;

/**
 * `POST /api/operator/models/{id}/price`: the new live price (USD decimals; omitted fields keep their value, null
 * clears an optional one). It takes effect at once for billing and the models page, and is recorded in the history.
 */
export const modelPriceRequestSchema = z.object({
  input_usd_per_million: usdAmountSchema.optional(),
  output_usd_per_million: usdAmountSchema.optional(),
  cached_input_usd_per_million: usdAmountSchema.nullable().optional(),
  usd_per_request: usdAmountSchema.nullable().optional(),
  reason: z.string().trim().min(1).max(500).optional(),
  /** Must be true to set a price below the cost of every route (after the deepest discount); 400 `below_cost` else. */
  confirm_below_cost: z.boolean().optional(),
});
export type ModelPriceRequest = z.infer<typeof modelPriceRequestSchema>;

/** One entry of a model's price history: the rates from `effective_at` on. */
export const priceChangeSchema = z.object({
  model_id: z.string(),
  effective_at: z.string(),
  input_usd_per_million: z.number(),
  output_usd_per_million: z.number(),
  cached_input_usd_per_million: z.number().nullable(),
  usd_per_request: z.number().nullable(),
  reason: z.string(),
});
export type PriceChange = z.infer<typeof priceChangeSchema>;

export const priceChangeListSchema = z.object({ data: z.array(priceChangeSchema) });
export type PriceChangeList = z.infer<typeof priceChangeListSchema>;

/**
 * One price tier of an image model: the vendor's list price of one image of that quality and size (null: any). Its
 * price is the model's flat price × this list price / the flat list price, so the operator's price for the model and
 * every discount apply to it; `usd_per_request` is that price at the price list's rates.
 */
export const imagePriceTierSchema = z.object({
  quality: z.string().nullable(),
  size: z.string().nullable(),
  list_usd_per_request: z.number(),
  usd_per_request: z.number(),
});
export type ImagePriceTier = z.infer<typeof imagePriceTierSchema>;

/** `GET /api/operator/models/{id}/image-tiers`: the model's flat price (what tiers scale from) and its tiers. */
export const imagePriceTierListSchema = z.object({
  model_id: z.string(),
  flat_usd_per_request: z.number(),
  flat_list_usd_per_request: z.number().nullable(),
  data: z.array(imagePriceTierSchema),
});
export type ImagePriceTierList = z.infer<typeof imagePriceTierListSchema>;

/**
 * `POST /api/operator/models/{id}/image-tiers`: add a tier or change its list price (USD decimal). `quality` and
 * `size` must be values the model draws (not `auto`); null matches any. Every node bills with it within a second.
 */
export const imagePriceTierRequestSchema = z.object({
  quality: z.string().trim().min(1).max(50).nullable(),
  size: z.string().trim().min(1).max(20).nullable(),
  list_usd_per_request: usdAmountSchema,
});
export type ImagePriceTierRequest = z.infer<typeof imagePriceTierRequestSchema>;

/** `DELETE /api/operator/models/{id}/image-tiers?quality&size`: an omitted parameter names the tier matching any. */
export const imagePriceTierQuerySchema = z.object({
  quality: z.string().trim().min(1).max(50).optional(),
  size: z.string().trim().min(1).max(20).optional(),
});
export type ImagePriceTierQuery = z.infer<typeof imagePriceTierQuerySchema>;

/** `GET /api/operator/usage`: every account's calls, with the usage filters plus an account. */
export const operatorUsageQuerySchema = usageFilterQuerySchema.omit({ key_id: true }).extend({
  user_id: z.string().min(1).max(100).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  cursor: z.string().max(200).optional(),
});
export type OperatorUsageQuery = z.infer<typeof operatorUsageQuerySchema>;

/** One call of any account, with the route that served it (null when no route answered). */
export const operatorUsageRecordSchema = usageRecordSchema.omit({ key_name: true }).extend({
  user_id: z.string(),
  user_email: z.string(),
  route_id: z.string().nullable(),
});
export type OperatorUsageRecord = z.infer<typeof operatorUsageRecordSchema>;

export const operatorUsagePageSchema = z.object({
  data: z.array(operatorUsageRecordSchema),
  next_cursor: z.string().nullable(),
});
export type OperatorUsagePage = z.infer<typeof operatorUsagePageSchema>;

/** `GET /api/operator/revenue`: `from` inclusive, `to` exclusive (bare dates are UTC days); default the last 30 days. */
export const revenueQuerySchema = usageFilterQuerySchema.pick({ from: true, to: true });
export type RevenueQuery = z.infer<typeof revenueQuerySchema>;

/**
 * Income per UTC day (from the ledger) and per model (from the usage records), USD. Cost of goods is what the calls
 * cost us upstream (each usage record's route cost); margin is call income less it (subscriptions are not in it).
 */
export const revenueReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  total_usd: z.number(),
  cost_of_goods_usd: z.number().optional(),
  days: z.array(
    z.object({
      date: z.string(),
      usage_usd: z.number(),
      subscriptions_usd: z.number(),
      total_usd: z.number(),
      cost_of_goods_usd: z.number().optional(),
      margin_usd: z.number().optional(),
    }),
  ),
  models: z.array(
    z.object({
      model: z.string(),
      requests: z.number().int(),
      input_tokens: z.number().int(),
      output_tokens: z.number().int(),
      image_count: z.number().int(),
      revenue_usd: z.number(),
      cost_of_goods_usd: z.number().optional(),
      margin_usd: z.number().optional(),
      /** Margin as a share of the model's income, percent; null without income. */
      margin_percent: z.number().nullable().optional(),
    }),
  ),
});
export type RevenueReport = z.infer<typeof revenueReportSchema>;
