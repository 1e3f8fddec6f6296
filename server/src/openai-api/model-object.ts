/**
 * `GET /v1/models` entries (docs/reference/openai.md §Models and images): the four OpenAI keys, extended with the catalogue data clients
 * ask for (prices, context, family, whether the model is served by a simulator). OpenRouter-style `pricing` values
 * are plain decimal USD strings per token/request so that tools built for OpenRouter read them unchanged.
 */
export type ModelObject = {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  name: string;
  vendor_family: string;
  kind: 'text' | 'image' | 'embedding';
  context_length: number;
  max_output_tokens: number;
  is_simulated: boolean;
  pricing: ModelPricing;
};

export type ModelPricing = {
  input_usd_per_million: number;
  output_usd_per_million: number;
  cached_input_usd_per_million: number | null;
  /**
   * Image models: USD for one image of a request that sets neither `quality` nor `size` (held per image, and the
   * most it costs: where the model picks the quality, its dearest one). Null for text models.
   */
  usd_per_request: number | null;
  prompt: string;
  completion: string;
  /** `usd_per_request` as a decimal string; "0" for text models. */
  request: string;
  /** Image models only: the price of one image by quality and size (null: any); empty when the price is flat. */
  image_tiers?: ImageTierPrice[];
};

/** One image of that quality and size, USD as a decimal string. */
export type ImageTierPrice = { quality: string | null; size: string | null; price: string };

export type ModelList = { object: 'list'; data: ModelObject[] };
