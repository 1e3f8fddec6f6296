import { z } from 'zod';

/** An API key as the dashboard lists it: never the key itself or its hash. Times are ISO 8601, amounts USD. */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The first characters of the key (`sk-…`) and its last four, to recognise it. */
  prefix: z.string(),
  last_four: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  spend_cap_usd: z.number().nullable(),
  spent_usd: z.number(),
  /** The models this key may call, or null for every model. */
  allowed_models: z.array(z.string()).nullable(),
  requests_per_minute: z.number().int().nullable(),
  /** Input plus output tokens per minute, or null for the account's budget (if any). */
  tokens_per_minute: z.number().int().nullable(),
  /** What the key may spend per UTC day and per UTC month, or null for no such budget (docs/limits.md). */
  daily_budget_usd: z.number().nullable(),
  monthly_budget_usd: z.number().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListSchema = z.object({ data: z.array(apiKeySchema) });
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

/**
 * `POST /api/keys`. `spend_cap_usd` (for the key's lifetime), `daily_budget_usd` and `monthly_budget_usd` are decimal
 * USD amounts with at most six decimals ("25", "0.5"; a JSON number is read as its decimal text). `allowed_models`
 * must name models of the price list.
 */
export const createApiKeyRequestSchema = z.object({
  name: z.string().trim().min(1).max(100),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  spend_cap_usd: z.union([z.string(), z.number()]).nullable().optional(),
  allowed_models: z.array(z.string().min(1).max(200)).min(1).max(500).nullable().optional(),
  requests_per_minute: z.number().int().min(1).max(1_000_000).nullable().optional(),
  tokens_per_minute: z.number().int().min(1).max(1_000_000_000).nullable().optional(),
  daily_budget_usd: z.union([z.string(), z.number()]).nullable().optional(),
  monthly_budget_usd: z.union([z.string(), z.number()]).nullable().optional(),
});
export type CreateApiKeyRequest = z.infer<typeof createApiKeyRequestSchema>;

/** The answer to `POST /api/keys`: the only time the full key is shown. */
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

/** `DELETE /api/keys/{id}`: the key stops working on every node within a second. */
export const deletedApiKeySchema = z.object({ id: z.string(), deleted: z.literal(true) });
export type DeletedApiKey = z.infer<typeof deletedApiKeySchema>;
