/**
 * `GET /v1/models` entries (wire-formats.md §4.1): the four OpenAI keys, extended with the catalogue data clients
 * ask for (prices, context, family, whether the model is served by a simulator). OpenRouter-style `pricing` values
 * are USD strings per token/request so that tools built for OpenRouter read them unchanged.
 */
export type ModelObject = {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  name: string;
  vendor_family: string;
  kind: 'text' | 'image';
  context_length: number;
  max_output_tokens: number;
  is_simulated: boolean;
  pricing: {
    input_usd_per_million: number;
    output_usd_per_million: number;
    cached_input_usd_per_million: number | null;
    usd_per_request: number | null;
    prompt: string;
    completion: string;
    request: string;
  };
};

export type ModelList = { object: 'list'; data: ModelObject[] };
