import type { CatalogModel } from '../catalog/price-list.ts';
import type { RouteCost } from '../catalog/route-cost.ts';
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
export function priceTokenUsage(
  model: Pick<
    CatalogModel,
    | 'inputRateMicros'
    | 'outputRateMicros'
    | 'cachedInputRateMicros'
    | 'cacheWriteRateBasisPoints'
    | 'discountBasisPoints'
  >,
  usage: TokenUsage,
): number {
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

/**
 * What a call cost us at the route that served it (its entered cost, else the list price): tokens the same way as
 * our price (cached input, cache writes, output), images at the route's per-image cost, no discount. The usage
 * record keeps it, so the revenue report's cost of goods is what each call cost when it was made.
 */
export function priceRouteCost(cost: RouteCost, input: { usage: TokenUsage; imageCount: number }): number {
  const tokens = priceTokenUsage(
    {
      inputRateMicros: cost.inputMicros,
      outputRateMicros: cost.outputMicros,
      cachedInputRateMicros: cost.cachedInputMicros,
      cacheWriteRateBasisPoints: cost.cacheWriteRateBasisPoints,
    },
    input.usage,
  );
  return tokens + (cost.perRequestMicros ?? 0) * input.imageCount;
}
