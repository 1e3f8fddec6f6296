import { z } from 'zod';

const dateOrTimeSchema = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/**
 * Filters of the usage endpoints. `from` is inclusive and `to` exclusive; a bare date (`2025-01-31`) means that UTC
 * day, so `to=2025-01-31` includes the whole of the 31st.
 */
export const usageFilterQuerySchema = z.object({
  from: dateOrTimeSchema.optional(),
  to: dateOrTimeSchema.optional(),
  model: z.string().min(1).max(200).optional(),
  key_id: z.string().min(1).max(100).optional(),
});
export type UsageFilterQuery = z.infer<typeof usageFilterQuerySchema>;

/** `GET /api/usage`: newest first, `limit` rows (default 50, at most 500), `cursor` from the previous page. */
export const usageQuerySchema = usageFilterQuerySchema.extend({
  limit: z.coerce.number().int().min(1).max(500).optional(),
  cursor: z.string().max(200).optional(),
});
export type UsageQuery = z.infer<typeof usageQuerySchema>;

/**
 * One API call: counts, times, the provider that served it and cost. Never any request or response text, and never
 * the route itself (its id, address or the attempts that failed): operators see those (docs/routing.md).
 */
export const usageRecordSchema = z.object({
  request_id: z.string(),
  created_at: z.string(),
  model: z.string(),
  endpoint: z.string(),
  key_id: z.string().nullable(),
  key_name: z.string().nullable(),
  provider: z.string().nullable(),
  status: z.enum(['completed', 'interrupted', 'failed']),
  error_code: z.string().nullable(),
  input_tokens: z.number().int(),
  cached_tokens: z.number().int(),
  output_tokens: z.number().int(),
  reasoning_tokens: z.number().int(),
  image_count: z.number().int(),
  time_to_first_token_ms: z.number().int().nullable(),
  latency_ms: z.number().int(),
  cost_usd: z.number(),
});
export type UsageRecord = z.infer<typeof usageRecordSchema>;

export const usagePageSchema = z.object({
  data: z.array(usageRecordSchema),
  /** Pass as `cursor` to get the next (older) page; null on the last page. */
  next_cursor: z.string().nullable(),
});
export type UsagePage = z.infer<typeof usagePageSchema>;

/** `GET /api/usage/daily`: totals per UTC day and model, oldest day first. */
export const dailyUsageSchema = z.object({
  date: z.string(),
  model: z.string(),
  requests: z.number().int(),
  input_tokens: z.number().int(),
  cached_tokens: z.number().int(),
  output_tokens: z.number().int(),
  reasoning_tokens: z.number().int(),
  image_count: z.number().int(),
  cost_usd: z.number(),
});
export type DailyUsage = z.infer<typeof dailyUsageSchema>;

export const dailyUsageListSchema = z.object({ data: z.array(dailyUsageSchema) });
export type DailyUsageList = z.infer<typeof dailyUsageListSchema>;
