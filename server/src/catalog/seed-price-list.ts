import { bumpCacheVersion } from '../db/cache-versions.ts';
import type { Database } from '../db/database.ts';
import { insertModelIfAbsent, listModels } from '../db/models.ts';
import type { SeedModel } from '../config/seed-catalog.ts';
import { applyDiscountMicros } from '../lib/money.ts';

/**
 * Inserts every seed model that is not in the database yet, priced at its list price less the default discount.
 * Existing rows are never touched, so an operator's prices survive restarts. Returns how many were added.
 */
export async function seedPriceList(
  deps: { db: Database; nowMs: number },
  input: { models: readonly SeedModel[]; discountBasisPoints: number },
): Promise<number> {
  const known = new Set((await listModels(deps.db)).map((row) => row.id));
  const missing = input.models.filter((model) => !known.has(model.id));
  if (missing.length === 0) return 0;
  // The vendor price database is 1.6 MB of code: loaded only when a model is seeded, not on every start.
  const { findListPrice } = await import('./list-price.ts');
  let added = 0;
  for (const model of missing) {
    const list = findListPrice(model);
    const ours = (micros: number | null) =>
      micros === null ? null : applyDiscountMicros(micros, input.discountBasisPoints);
    const isAdded = await insertModelIfAbsent(deps.db, {
      id: model.id,
      display_name: model.displayName,
      family: model.family,
      kind: model.kind,
      context_length: model.contextLength,
      max_output_tokens: model.maxOutputTokens,
      input_rate_micros: applyDiscountMicros(list.inputRateMicros, input.discountBasisPoints),
      output_rate_micros: applyDiscountMicros(list.outputRateMicros, input.discountBasisPoints),
      cached_input_rate_micros: ours(list.cachedInputRateMicros),
      per_request_micros: ours(list.perRequestMicros),
      list_input_rate_micros: list.inputRateMicros,
      list_output_rate_micros: list.outputRateMicros,
      list_cached_input_rate_micros: list.cachedInputRateMicros,
      list_per_request_micros: list.perRequestMicros,
      cache_write_rate_basis_points: list.cacheWriteRateBasisPoints,
      supports_tools: model.supportsTools ? 1 : 0,
      supports_vision: model.supportsVision ? 1 : 0,
      price_effective_at: deps.nowMs,
      enabled: 1,
      created_at: deps.nowMs,
    });
    if (isAdded) added += 1;
  }
  if (added > 0) await bumpCacheVersion(deps.db, 'catalog');
  return added;
}
