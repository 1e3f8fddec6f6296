import type { PricingRule } from '../config/config.ts';
import { applyDiscountMicros } from '../lib/money.ts';

export type { PricingRule };

/** A model's rates in integer micro-USD: per 1M tokens (cached input: null where none), per image (null: none). */
export type ModelRates = {
  inputMicros: number;
  outputMicros: number;
  cachedInputMicros: number | null;
  perRequestMicros: number | null;
};

/**
 * Our price by the default pricing rule (docs/catalogue.md): the route cost plus the markup, or the list price less
 * the discount. Each rate is rounded up to the micro, so the rule never prices a fraction below what it says.
 */
export function applyPricingRule(rule: PricingRule, input: { list: ModelRates; cost: ModelRates }): ModelRates {
  // A markup is a negative discount: cost × (10,000 + markup) / 10,000, rounded up by the same one function.
  const [base, discountBasisPoints] =
    rule.kind === 'cost_plus_markup' ? [input.cost, -rule.markupBasisPoints] : [input.list, rule.discountBasisPoints];
  const price = (micros: number) => applyDiscountMicros(micros, discountBasisPoints);
  const optional = (micros: number | null) => (micros === null ? null : price(micros));
  return {
    inputMicros: price(base.inputMicros),
    outputMicros: price(base.outputMicros),
    cachedInputMicros: optional(base.cachedInputMicros),
    perRequestMicros: optional(base.perRequestMicros),
  };
}
