import { calcPrice } from '@pydantic/genai-prices';
import type { SeedModel } from '../config/seed-catalog.ts';

/** A vendor list price in integer micro-USD (per 1M tokens, or per image request). */
export type ListPrice = {
  inputRateMicros: number;
  outputRateMicros: number;
  cachedInputRateMicros: number | null;
  perRequestMicros: number | null;
  /** A prompt-cache write's price as a share of the input rate (12,500 = 1.25×), or null where writes cost input. */
  cacheWriteRateBasisPoints: number | null;
};

const sampleTokens = 1000;

/**
 * Looks the list price up in `@pydantic/genai-prices` (rates read off a 1,000-token sample, below any long-context
 * tier) or takes the vendor list price written in the seed entry.
 */
export function findListPrice(model: SeedModel): ListPrice {
  const fixed = model.listPriceUsd;
  if (fixed) {
    return {
      inputRateMicros: usdToMicros(fixed.inputPerMillion ?? 0),
      outputRateMicros: usdToMicros(fixed.outputPerMillion ?? 0),
      cachedInputRateMicros:
        fixed.cachedInputPerMillion === undefined ? null : usdToMicros(fixed.cachedInputPerMillion),
      perRequestMicros: fixed.perRequest === undefined ? null : usdToMicros(fixed.perRequest),
      cacheWriteRateBasisPoints: null,
    };
  }
  if (!model.listPriceFrom) throw new Error(`seed model ${model.id} has no list price`);
  const { providerId, modelRef } = model.listPriceFrom;
  const plain = calcPrice({ input_tokens: sampleTokens, output_tokens: sampleTokens }, modelRef, { providerId });
  if (!plain) throw new Error(`@pydantic/genai-prices has no price for ${providerId}/${modelRef}`);
  const cached = calcPrice(
    { input_tokens: sampleTokens, cache_read_tokens: sampleTokens, output_tokens: 0 },
    modelRef,
    {
      providerId,
    },
  );
  // `cache_write_mtok`: the price of writing the prompt cache (Anthropic's 5-minute writes), when the vendor has one.
  const written = calcPrice(
    { input_tokens: sampleTokens, cache_write_tokens: sampleTokens, output_tokens: 0 },
    modelRef,
    {
      providerId,
    },
  );
  const perMillion = 1_000_000 / sampleTokens;
  const inputRateMicros = usdToMicros(plain.input_price * perMillion);
  const cachedRate = cached ? usdToMicros(cached.input_price * perMillion) : null;
  const writeShare =
    written && plain.input_price > 0 ? Math.round((written.input_price / plain.input_price) * 10_000) : null;
  return {
    inputRateMicros,
    outputRateMicros: usdToMicros(plain.output_price * perMillion),
    cachedInputRateMicros: cachedRate !== null && cachedRate < inputRateMicros ? cachedRate : null,
    perRequestMicros: null,
    cacheWriteRateBasisPoints: writeShare !== null && writeShare !== 10_000 ? writeShare : null,
  };
}

/** Converts a decimal USD figure from price data to micros; rounding to the micro removes binary float noise. */
function usdToMicros(usd: number): number {
  return Math.round(usd * 1_000_000);
}
