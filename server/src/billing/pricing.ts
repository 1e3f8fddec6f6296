import type { CatalogModel } from '../catalog/price-list.ts';
import { costOfTokensMicros } from '../lib/money.ts';

/** Token counts of one call. `inputTokens` includes the cached ones; `outputTokens` includes reasoning. */
export type TokenUsage = {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
};

export const zeroUsage: TokenUsage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };

/**
 * The cost of a text call at the model's (account's) rates: uncached input at the input rate, cached input at the
 * cached rate (or the input rate where the model has none), output at the output rate, less the account's discount,
 * rounded up once (lib/money.ts).
 */
export function priceTokenUsage(model: CatalogModel, usage: TokenUsage): number {
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  return costOfTokensMicros(
    [
      { tokens: usage.inputTokens - cached, ratePerMillionMicros: model.inputRateMicros },
      { tokens: cached, ratePerMillionMicros: model.cachedInputRateMicros ?? model.inputRateMicros },
      { tokens: usage.outputTokens, ratePerMillionMicros: model.outputRateMicros },
    ],
    { discountBasisPoints: model.discountBasisPoints },
  );
}
