import { applyDiscountMicros } from '../lib/money.ts';
import type { ModelRates } from './apply-pricing-rule.ts';
import type { RouteCost } from './route-cost.ts';

/**
 * The margin of a model: our price after the deepest discount against the cheapest and the dearest healthy route's
 * cost, each taken for the models page's mix (10M input + 1M output tokens, or one image). Routes that are all
 * unhealthy still count, so a model is never shown with no cost just because its upstream is resting.
 */
export type Margin = {
  /** Our price of the mix after the deepest discount. */
  discountedPriceMicros: number;
  cheapestCostMicros: number | null;
  dearestCostMicros: number | null;
  /** (price − cheapest cost) / price, basis points; null without a route or with a zero price. */
  marginBasisPoints: number | null;
  /** Even the cheapest route costs more than the discounted price: every sale loses money. */
  isBelowCost: boolean;
};

const inputMillions = 10;
const outputMillions = 1;

export function describeMargin(input: {
  kind: 'text' | 'image' | 'embedding';
  price: ModelRates;
  routes: readonly { cost: RouteCost; isHealthy: boolean }[];
  deepestDiscountBasisPoints: number;
}): Margin {
  const mix = (rates: Pick<ModelRates, 'inputMicros' | 'outputMicros' | 'perRequestMicros'>) =>
    input.kind === 'image'
      ? (rates.perRequestMicros ?? 0)
      : rates.inputMicros * inputMillions + rates.outputMicros * outputMillions;
  const discountedPriceMicros = applyDiscountMicros(mix(input.price), input.deepestDiscountBasisPoints);
  const healthy = input.routes.filter((route) => route.isHealthy);
  const costs = (healthy.length > 0 ? healthy : input.routes).map((route) => mix(route.cost));
  if (costs.length === 0) {
    return {
      discountedPriceMicros,
      cheapestCostMicros: null,
      dearestCostMicros: null,
      marginBasisPoints: null,
      isBelowCost: false,
    };
  }
  const cheapestCostMicros = Math.min(...costs);
  return {
    discountedPriceMicros,
    cheapestCostMicros,
    dearestCostMicros: Math.max(...costs),
    marginBasisPoints:
      discountedPriceMicros === 0
        ? null
        : Math.round(((discountedPriceMicros - cheapestCostMicros) / discountedPriceMicros) * 10_000),
    isBelowCost: discountedPriceMicros < cheapestCostMicros,
  };
}
