import { z } from 'zod';

/** What names and sizes a model, in every listing of models (the public price list and the operator's). */
export const modelDefinitionShape = {
  id: z.string(),
  display_name: z.string(),
  family: z.string(),
  kind: z.enum(['text', 'image', 'embedding']),
  context_length: z.number().int(),
  max_output_tokens: z.number().int(),
};

/** A price per 1M tokens, USD: input, output and cached input (`null`: no cached rate). */
export const tokenPriceShape = {
  input_usd_per_million: z.number(),
  output_usd_per_million: z.number(),
  cached_input_usd_per_million: z.number().nullable(),
};

/** The vendor's own list price per 1M tokens, USD. */
export const listTokenPriceShape = {
  list_input_usd_per_million: z.number(),
  list_output_usd_per_million: z.number(),
};

/**
 * One model of the public price list (`GET /api/models`), as the models page shows it. Prices are USD numbers
 * (exact micro-dollar amounts); `null` where not applicable (no cached rate, or a text model's per-request price).
 */
export const publicModelSchema = z.object({
  ...modelDefinitionShape,
  ...tokenPriceShape,
  /**
   * Image models: one image of a request that sets neither quality nor size, as it is held and at most charged
   * (where the model picks the quality, its dearest one at the default size). `image_price_tiers` has the others.
   */
  usd_per_request: z.number().nullable(),
  ...listTokenPriceShape,
  /** The vendor's list price of that same default image. */
  list_usd_per_request: z.number().nullable(),
  /**
   * Image models: the flat per-image price the operator sets (`POST /api/operator/models/{id}/price`,
   * `usd_per_request`), which price tiers scale from and which applies where no tier matches. It differs from
   * `usd_per_request` when the default request falls in a dearer tier. Null for text models.
   */
  flat_usd_per_request: z.number().nullable(),
  /** Discount against the vendor's list price, percent, for a 10:1 input:output mix (or per request for images). */
  discount_percent: z.number(),
  /** What 10M input + 1M output tokens (or 100 images) save against the list price, USD. */
  savings_usd_at_10_to_1: z.number(),
  price_effective_at: z.string(),
  is_simulated: z.boolean(),
  supports_tools: z.boolean(),
  supports_vision: z.boolean(),
  /**
   * Image models whose price depends on quality and size: the price of one image of each tier (`null`: any quality
   * or size). Empty or absent when the model has one flat per-request price.
   */
  image_price_tiers: z
    .array(
      z.object({
        quality: z.string().nullable(),
        size: z.string().nullable(),
        usd_per_request: z.number(),
        list_usd_per_request: z.number(),
      }),
    )
    .optional(),
});
export type PublicModel = z.infer<typeof publicModelSchema>;

export const publicModelListSchema = z.object({
  data: z.array(publicModelSchema),
  sandbox: z.boolean(),
  public_base_url: z.string(),
  direct_base_url: z.string(),
});
export type PublicModelList = z.infer<typeof publicModelListSchema>;
