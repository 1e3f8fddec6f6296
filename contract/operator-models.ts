import { z } from 'zod';
import { listTokenPriceShape, modelDefinitionShape, tokenPriceShape } from './models.ts';
import { usdAmountSchema } from './subscriptions.ts';

/** A model's capabilities as the operator sets them and `/v1/models` tells clients. */
const capabilitiesShape = {
  supports_tools: z.boolean().optional(),
  supports_vision: z.boolean().optional(),
  supports_json_schema: z.boolean().optional(),
  supports_reasoning: z.boolean().optional(),
  supports_web_search: z.boolean().optional(),
};

/**
 * Prices of a model, USD decimals (strings or numbers, at most six decimals): per 1M tokens for text models, per
 * image for image models. `list_*`: the vendor's own list price. Our price fields omitted on creation follow the
 * default pricing rule (docs/catalogue.md).
 */
const priceShape = {
  list_input_usd_per_million: usdAmountSchema.optional(),
  list_output_usd_per_million: usdAmountSchema.optional(),
  list_cached_input_usd_per_million: usdAmountSchema.nullable().optional(),
  list_usd_per_request: usdAmountSchema.nullable().optional(),
  input_usd_per_million: usdAmountSchema.optional(),
  output_usd_per_million: usdAmountSchema.optional(),
  cached_input_usd_per_million: usdAmountSchema.nullable().optional(),
  usd_per_request: usdAmountSchema.nullable().optional(),
};

/**
 * `POST /api/operator/models`: a new model. `family` is one of the vendor families the gateway knows; `provider` is
 * the vendor whose own API serves it (default: the family's vendor) and `upstream_model` its id there (default: the
 * id). `confirm_below_cost` must be true to sell below the cost of every route.
 */
export const createModelRequestSchema = z.strictObject({
  id: z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,199}$/,
      'letters, digits and . _ : / - (at most 200), starting with a letter or digit',
    ),
  display_name: z.string().trim().min(1).max(200),
  family: z.string().min(1).max(60),
  kind: z.enum(['text', 'image', 'embedding']),
  context_length: z.number().int().min(1).max(100_000_000),
  max_output_tokens: z.number().int().min(0).max(100_000_000),
  provider: z.string().min(1).max(40).optional(),
  upstream_model: z.string().trim().min(1).max(200).optional(),
  ...capabilitiesShape,
  ...priceShape,
  confirm_below_cost: z.boolean().optional(),
  reason: z.string().trim().min(1).max(500).optional(),
});
export type CreateModelRequest = z.infer<typeof createModelRequestSchema>;

/** `PATCH /api/operator/models/{id}`: any field but the id and kind; omitted fields keep their value. */
export const updateModelRequestSchema = createModelRequestSchema.omit({ id: true, kind: true }).partial();
export type UpdateModelRequest = z.infer<typeof updateModelRequestSchema>;

/** `POST /api/operator/models/{id}/retire`: the model its callers are told to use instead (optional). */
export const retireModelRequestSchema = z.strictObject({ successor: z.string().min(1).max(200).nullable().optional() });
export type RetireModelRequest = z.infer<typeof retireModelRequestSchema>;

/** One route's cost for the model, USD (per 1M tokens, per image), and whether it is healthy on this node. */
export const routeCostSchema = z.object({
  route_id: z.string(),
  provider: z.string(),
  is_healthy: z.boolean(),
  /** `entered` (set on the route) or `list_price` (the vendor's list price: its own API, or nothing entered). */
  basis: z.enum(['entered', 'list_price']),
  ...tokenPriceShape,
  usd_per_request: z.number().nullable(),
});
export type RouteCost = z.infer<typeof routeCostSchema>;

/**
 * A model as the operator manages it: definition, prices, the routes that serve it with their costs, and the margin.
 * `margin_percent` is our price after the deepest subscription and contract discounts against the cheapest healthy
 * route's cost, for a 10:1 input:output mix (or one image); null when no route serves it. `is_below_cost`: even
 * the cheapest route costs more than that price.
 */
export const operatorModelSchema = z.object({
  ...modelDefinitionShape,
  provider: z.string().nullable(),
  upstream_model: z.string().nullable(),
  supports_tools: z.boolean(),
  supports_vision: z.boolean(),
  supports_json_schema: z.boolean(),
  supports_reasoning: z.boolean(),
  supports_web_search: z.boolean(),
  ...tokenPriceShape,
  usd_per_request: z.number().nullable(),
  ...listTokenPriceShape,
  list_cached_input_usd_per_million: z.number().nullable(),
  list_usd_per_request: z.number().nullable(),
  retired_at: z.string().nullable(),
  successor: z.string().nullable(),
  routes: z.array(routeCostSchema),
  cheapest_route_usd: z.number().nullable(),
  dearest_route_usd: z.number().nullable(),
  /** The deepest discount that can apply (the best plan's and the deepest contract's, together), percent. */
  deepest_discount_percent: z.number(),
  margin_percent: z.number().nullable(),
  is_below_cost: z.boolean(),
});
export type OperatorModel = z.infer<typeof operatorModelSchema>;

export const operatorModelListSchema = z.object({ data: z.array(operatorModelSchema) });
export type OperatorModelList = z.infer<typeof operatorModelListSchema>;
