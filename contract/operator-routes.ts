import { z } from 'zod';

/** A route's health on the node that answered (each node judges the upstreams by what it sees itself). */
export const routeHealthSchema = z.object({
  /** `healthy`, `cooling` (resting after a Retry-After), `open` (circuit breaker open) or `half_open` (probing). */
  state: z.enum(['healthy', 'cooling', 'open', 'half_open']),
  /** Moving average of the share of failed attempts, 0..1. */
  error_rate: z.number(),
  time_to_first_token_ms: z.number().nullable(),
  latency_ms: z.number().nullable(),
  in_flight: z.number().int(),
  cooling_until: z.string().nullable(),
  /** When an open breaker lets its next probe through. */
  probe_at: z.string().nullable(),
  attempts: z.number().int(),
  failures: z.number().int(),
});
export type RouteHealth = z.infer<typeof routeHealthSchema>;

/**
 * An upstream route as the operator sees it. Never its credential: only whether one is set. `origin` is `database`
 * for routes managed here, `environment` (a vendor key in the configuration) or `sandbox` (a simulator) for the
 * implicit ones, which the API can only enable or disable. Costs are micro-USD per 1M tokens.
 */
export const operatorRouteSchema = z.object({
  id: z.string(),
  model: z.string(),
  provider: z.string(),
  base_url: z.string(),
  upstream_model: z.string(),
  origin: z.enum(['database', 'environment', 'sandbox']),
  enabled: z.boolean(),
  has_credential: z.boolean(),
  priority: z.number().int(),
  weight: z.number().int(),
  input_cost_micros: z.number().int().nullable(),
  output_cost_micros: z.number().int().nullable(),
  /** Cached input per 1M tokens and one image, micro-USD (null: not entered, the list price applies). */
  cached_input_cost_micros: z.number().int().nullable().optional(),
  per_request_cost_micros: z.number().int().nullable().optional(),
  max_concurrency: z.number().int().nullable(),
  connect_timeout_ms: z.number().int().nullable(),
  first_byte_timeout_ms: z.number().int().nullable(),
  idle_timeout_ms: z.number().int().nullable(),
  /** Account ids the route is reserved for; empty: every account. */
  reserved_for: z.array(z.string()),
  /** The vendor's own settings: Azure OpenAI's `api_version`, Vertex AI's `vertex_project` and `vertex_location`. */
  options: z.record(z.string(), z.string()),
  health: routeHealthSchema,
});
export type OperatorRoute = z.infer<typeof operatorRouteSchema>;

export const operatorRouteListSchema = z.object({ data: z.array(operatorRouteSchema) });
export type OperatorRouteList = z.infer<typeof operatorRouteListSchema>;

/** The settings both creation and update take; null clears a setting back to its default. Bounds are checked by the server with a message naming the field. */
const routeSettingsShape = {
  priority: z.number().int().optional(),
  weight: z.number().int().optional(),
  input_cost_micros: z.number().int().nullable().optional(),
  output_cost_micros: z.number().int().nullable().optional(),
  cached_input_cost_micros: z.number().int().nullable().optional(),
  per_request_cost_micros: z.number().int().nullable().optional(),
  max_concurrency: z.number().int().nullable().optional(),
  connect_timeout_ms: z.number().int().nullable().optional(),
  first_byte_timeout_ms: z.number().int().nullable().optional(),
  idle_timeout_ms: z.number().int().nullable().optional(),
  reserved_for: z.array(z.string().min(1).max(100)).max(1000).nullable().optional(),
  /**
   * The vendor's own settings by name, checked by the vendor's schema (a name another vendor owns, or no vendor, is
   * refused); null removes one, names not given stay as they are.
   */
  options: z.record(z.string().min(1).max(40), z.string().max(200).nullable()).optional(),
};

/** `POST /api/operator/routes`. `api_key` is the vendor credential: sealed with the master key, never shown again. */
export const createRouteRequestSchema = z.strictObject({
  model: z.string().min(1).max(200),
  provider: z.string().min(1).max(40),
  base_url: z.string().min(1).max(2000),
  api_key: z.string().min(1).max(10_000).optional(),
  upstream_model: z.string().min(1).max(200).optional(),
  ...routeSettingsShape,
});
export type CreateRouteRequest = z.infer<typeof createRouteRequestSchema>;

/**
 * `PATCH /api/operator/routes/{id}`: only the fields given change; `enabled` turns the route on or off. An
 * `environment` or `sandbox` route takes `enabled` only (anything else is a 400 naming the field).
 */
export const updateRouteRequestSchema = z.strictObject({
  base_url: z.string().min(1).max(2000).optional(),
  api_key: z.string().min(1).max(10_000).optional(),
  upstream_model: z.string().min(1).max(200).optional(),
  enabled: z.boolean().optional(),
  ...routeSettingsShape,
});
export type UpdateRouteRequest = z.infer<typeof updateRouteRequestSchema>;
