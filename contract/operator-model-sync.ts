import { z } from 'zod';

/** List rates of a model in USD: per 1M input, output and cached input tokens (null: no cached rate). */
const listRatesSchema = z.object({
  input_usd_per_million: z.number(),
  output_usd_per_million: z.number(),
  cached_input_usd_per_million: z.number().nullable(),
});

/**
 * What a model sync found (`GET /api/operator/models/sync`): the catalogue compared with the genai-prices data
 * (`price_source` says whether the published file or the package's bundled copy was read, and why not the first)
 * and with the model lists of the vendors the live routes reach.
 */
export const modelSyncReportSchema = z.object({
  price_source: z.object({
    kind: z.enum(['published', 'bundled']),
    url: z.string().nullable(),
    problem: z.string().nullable(),
  }),
  vendor_lists: z.array(
    z.object({ provider: z.string(), model_count: z.number().int().nullable(), problem: z.string().nullable() }),
  ),
  /** Models of a family the catalogue lacks; `is_new_version`: a later version of a line the catalogue offers. */
  new_models: z.array(
    z.object({
      id: z.string(),
      family: z.string(),
      provider: z.string(),
      display_name: z.string(),
      found_in: z.enum(['price_data', 'vendor_list', 'both']),
      is_new_version: z.boolean(),
      /** Null when the price data has no price for it: it cannot be added by a sync, only by hand. */
      list_price: listRatesSchema.nullable(),
      context_length: z.number().int().nullable(),
    }),
  ),
  list_price_changes: z.array(
    z.object({
      id: z.string(),
      family: z.string(),
      from: listRatesSchema,
      to: listRatesSchema,
      /** When the new list price took effect (the data's dated price), else the time of the sync. */
      effective_at: z.string(),
    }),
  ),
  /** Live models whose vendor's list no longer names them (applying retires them). */
  unlisted_models: z.array(z.object({ id: z.string(), family: z.string(), provider: z.string() })),
});
export type ModelSyncReport = z.infer<typeof modelSyncReportSchema>;

/** `POST /api/operator/models/sync`: apply every change found (`"all"`) or those of the model ids given. */
export const applyModelSyncRequestSchema = z.strictObject({
  apply: z.union([z.literal('all'), z.array(z.string().min(1).max(200)).min(1).max(1000)]),
});
export type ApplyModelSyncRequest = z.infer<typeof applyModelSyncRequestSchema>;

/** What applying did, model by model; a change another operator applied first is `already_applied`, not repeated. */
export const modelSyncResultSchema = z.object({
  price_source: modelSyncReportSchema.shape.price_source,
  results: z.array(
    z.object({
      id: z.string(),
      change: z.enum(['add', 'list_price', 'retire']),
      outcome: z.enum(['applied', 'already_applied', 'refused']),
      message: z.string().nullable(),
    }),
  ),
  /** Ids asked for that the sync found no change for. */
  not_found: z.array(z.string()),
});
export type ModelSyncResult = z.infer<typeof modelSyncResultSchema>;

/**
 * The sync schedule (`PUT /api/operator/models/sync/settings`): every `interval_hours` (0: off) a sync runs on one
 * node; with `auto_add: "new_versions"` it adds the later versions of lines the catalogue offers, priced from the
 * list price and the default pricing rule (other changes wait for an operator).
 */
export const modelSyncSettingsSchema = z.strictObject({
  interval_hours: z
    .number()
    .int()
    .min(0)
    .max(24 * 30),
  auto_add: z.enum(['off', 'new_versions']),
});
export type ModelSyncSettings = z.infer<typeof modelSyncSettingsSchema>;
