import type { CatalogModel } from '../catalog/price-list.ts';
import { costOfTokensMicros } from '../lib/money.ts';

/**
 * Token counts of one call. `inputTokens` includes the ones read from the prompt cache (`cachedInputTokens`) and the
 * ones written to it (`cacheWriteInputTokens`); `outputTokens` includes reasoning.
 */
export type TokenUsage = {
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteInputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
};

export const zeroUsage: TokenUsage = {
  inputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteInputTokens: 0,
  outputTokens: 0,
  reasoningTokens: 0,
};

/**
 * The cost of a text call at the model's (account's) rates: uncached input at the input rate, cached input at the
 * cached rate (or the input rate where the model has none), prompt-cache writes at the vendor's share of the input
 * rate (Anthropic's 1.25×; the input rate where the model has none), output at the output rate, less the account's
 * discount, rounded up once (lib/money.ts).
 */
export function priceTokenUsage(model: CatalogModel, usage: TokenUsage): number {
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const written = Math.min(usage.cacheWriteInputTokens, usage.inputTokens - cached);
  return costOfTokensMicros(
    [
      { tokens: usage.inputTokens - cached - written, ratePerMillionMicros: model.inputRateMicros },
      { tokens: cached, ratePerMillionMicros: model.cachedInputRateMicros ?? model.inputRateMicros },
      {
        tokens: written,
        ratePerMillionMicros: model.inputRateMicros,
        rateShareBasisPoints: model.cacheWriteRateBasisPoints ?? undefined,
      },
      { tokens: usage.outputTokens, ratePerMillionMicros: model.outputRateMicros },
    ],
    { discountBasisPoints: model.discountBasisPoints },
  );
}
