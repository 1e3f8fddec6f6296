import {
  calcPrice,
  type PriceCalculationResult,
  type PriceOptions,
  type Provider,
  type Usage,
} from '@pydantic/genai-prices';
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
  const found = readTokenListPrice((usage) => calcPrice(usage, modelRef, { providerId }));
  if (!found) throw new Error(`@pydantic/genai-prices has no price for ${providerId}/${modelRef}`);
  return found.price;
}

/** A token list price read from genai-prices data, with what the data says of the model. */
export type DataListPrice = {
  price: ListPrice;
  modelName: string | undefined;
  contextWindow: number | undefined;
  /** When the price in force at the time asked took effect (a dated price in the data), else undefined. */
  effectiveAtMs: number | undefined;
};

/** The list price of `modelRef` in one provider's data (published or bundled) at `at`, or undefined when unknown. */
export function findListPriceIn(input: { provider: Provider; modelRef: string; at: Date }): DataListPrice | undefined {
  const options: PriceOptions = { provider: input.provider, timestamp: input.at };
  return readTokenListPrice((usage) => calcPrice(usage, input.modelRef, options), input.at);
}

function readTokenListPrice(calculate: (usage: Usage) => PriceCalculationResult, at?: Date): DataListPrice | undefined {
  const plain = calculate({ input_tokens: sampleTokens, output_tokens: sampleTokens });
  if (!plain) return undefined;
  const cached = calculate({ input_tokens: sampleTokens, cache_read_tokens: sampleTokens, output_tokens: 0 });
  // `cache_write_mtok`: the price of writing the prompt cache (Anthropic's 5-minute writes), when the vendor has one.
  const written = calculate({ input_tokens: sampleTokens, cache_write_tokens: sampleTokens, output_tokens: 0 });
  const perMillion = 1_000_000 / sampleTokens;
  const inputRateMicros = usdToMicros(plain.input_price * perMillion);
  const cachedRate = cached ? usdToMicros(cached.input_price * perMillion) : null;
  const writeShare =
    written && plain.input_price > 0 ? Math.round((written.input_price / plain.input_price) * 10_000) : null;
  return {
    price: {
      inputRateMicros,
      outputRateMicros: usdToMicros(plain.output_price * perMillion),
      cachedInputRateMicros: cachedRate !== null && cachedRate < inputRateMicros ? cachedRate : null,
      perRequestMicros: null,
      cacheWriteRateBasisPoints: writeShare !== null && writeShare !== 10_000 ? writeShare : null,
    },
    modelName: plain.model.name,
    contextWindow: plain.model.context_window,
    effectiveAtMs: findPriceStartMs(plain.model.prices, at ?? new Date(0)),
  };
}

/** The start of the dated price in force at `at`: the latest `start_date` constraint not after it. */
function findPriceStartMs(prices: Provider['models'][number]['prices'], at: Date): number | undefined {
  if (!Array.isArray(prices)) return undefined;
  let latest: number | undefined;
  for (const conditional of prices) {
    const constraint = conditional.constraint;
    if (constraint?.type !== 'start_date' && !(constraint && 'start_date' in constraint)) continue;
    const startMs = Date.parse(`${constraint.start_date}T00:00:00Z`);
    if (startMs <= at.getTime() && (latest === undefined || startMs > latest)) latest = startMs;
  }
  return latest;
}

/** Converts a decimal USD figure from price data to micros; rounding to the micro removes binary float noise. */
function usdToMicros(usd: number): number {
  return Math.round(usd * 1_000_000);
}
