import type { CatalogModel } from './price-list.ts';

/**
 * What a route charges us for a model, in integer micro-USD: per 1M input, output and cached input tokens, per image.
 * `entered`: the operator set it on the route. `list_price`: nothing entered, so the vendor's list price of the
 * model, which is what the vendor's own API bills (environment and sandbox routes always), and the cautious
 * assumption for another upstream until its cost is entered.
 */
export type RouteCost = {
  inputMicros: number;
  outputMicros: number;
  cachedInputMicros: number | null;
  perRequestMicros: number | null;
  /** A prompt-cache write's share of the input cost (the model's, 12,500 = 1.25×); null: the input cost. */
  cacheWriteRateBasisPoints: number | null;
  basis: 'entered' | 'list_price';
};

/** The costs an operator entered on a route; each undefined when not entered. */
export type EnteredRouteCost = {
  inputCostMicros?: number | undefined;
  outputCostMicros?: number | undefined;
  cachedInputCostMicros?: number | undefined;
  perRequestCostMicros?: number | undefined;
};

export type ListRates = Pick<
  CatalogModel,
  | 'kind'
  | 'listInputRateMicros'
  | 'listOutputRateMicros'
  | 'listCachedInputRateMicros'
  | 'listPerRequestMicros'
  | 'cacheWriteRateBasisPoints'
>;

/** A route's cost: what was entered, each part not entered taken from the model's list price. */
export function findRouteCost(entered: EnteredRouteCost, model: ListRates): RouteCost {
  const isEntered =
    model.kind === 'image'
      ? entered.perRequestCostMicros !== undefined
      : entered.inputCostMicros !== undefined || entered.outputCostMicros !== undefined;
  return {
    inputMicros: entered.inputCostMicros ?? model.listInputRateMicros,
    outputMicros: entered.outputCostMicros ?? model.listOutputRateMicros,
    cachedInputMicros: entered.cachedInputCostMicros ?? model.listCachedInputRateMicros,
    perRequestMicros: entered.perRequestCostMicros ?? model.listPerRequestMicros,
    cacheWriteRateBasisPoints: model.cacheWriteRateBasisPoints ?? null,
    basis: isEntered ? 'entered' : 'list_price',
  };
}
