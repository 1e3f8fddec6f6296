import { bumpCacheVersion } from '../db/cache-versions.ts';
import type { Database } from '../db/database.ts';
import { fillModelVendors, insertModelIfAbsent, listModels } from '../db/models.ts';
import type { SeedModel } from '../config/seed-catalog.ts';
import type { PricingRule } from '../config/config.ts';
import { applyPricingRule } from './apply-pricing-rule.ts';

/**
 * Inserts every seed model that is not in the database yet, priced by the default pricing rule.
 * Existing rows are never touched, so an operator's prices survive restarts. A fresh install (no model yet) with
 * `withCurrentGeneration` also gets the current generation of each line from the bundled genai-prices data; later
 * releases reach an existing install through model sync, with the operator's consent. Returns how many were added.
 */
export async function seedPriceList(
  deps: { db: Database; nowMs: number },
  input: { models: readonly SeedModel[]; pricingRule: PricingRule; withCurrentGeneration?: boolean },
): Promise<number> {
  const rows = await listModels(deps.db);
  const known = new Set(rows.map((row) => row.id));
  const models =
    rows.length === 0 && input.withCurrentGeneration === true
      ? [...input.models, ...(await findBundledCurrentGeneration(input.models, deps.nowMs))]
      : input.models;
  const missing = models.filter((model) => !known.has(model.id));
  if (rows.some((row) => row.provider === null)) {
    await fillModelVendors(
      deps.db,
      input.models.map((model) => ({
        modelId: model.id,
        provider: model.provider,
        upstreamModel: model.upstreamModel,
      })),
    );
  }
  if (missing.length === 0) return 0;
  // The vendor price database is 1.6 MB of code: loaded only when a model is seeded, not on every start.
  const { findListPrice } = await import('./list-price.ts');
  let added = 0;
  for (const model of missing) {
    const list = findListPrice(model);
    const listRates = {
      inputMicros: list.inputRateMicros,
      outputMicros: list.outputRateMicros,
      cachedInputMicros: list.cachedInputRateMicros,
      perRequestMicros: list.perRequestMicros,
    };
    // A seeded model is served by its vendor's own API, which bills the list price: that is its route cost.
    const ours = applyPricingRule(input.pricingRule, { list: listRates, cost: listRates });
    const isAdded = await insertModelIfAbsent(deps.db, {
      id: model.id,
      display_name: model.displayName,
      family: model.family,
      kind: model.kind,
      context_length: model.contextLength,
      max_output_tokens: model.maxOutputTokens,
      input_rate_micros: ours.inputMicros,
      output_rate_micros: ours.outputMicros,
      cached_input_rate_micros: ours.cachedInputMicros,
      per_request_micros: ours.perRequestMicros,
      list_input_rate_micros: list.inputRateMicros,
      list_output_rate_micros: list.outputRateMicros,
      list_cached_input_rate_micros: list.cachedInputRateMicros,
      list_per_request_micros: list.perRequestMicros,
      cache_write_rate_basis_points: list.cacheWriteRateBasisPoints,
      supports_tools: model.supportsTools ? 1 : 0,
      supports_vision: model.supportsVision ? 1 : 0,
      provider: model.provider,
      upstream_model: model.upstreamModel,
      price_effective_at: deps.nowMs,
      enabled: 1,
      created_at: deps.nowMs,
    });
    if (isAdded) added += 1;
  }
  if (added > 0) await bumpCacheVersion(deps.db, 'catalog');
  return added;
}

async function findBundledCurrentGeneration(seed: readonly SeedModel[], nowMs: number): Promise<SeedModel[]> {
  const [{ waitForUpdate }, { findCurrentGeneration }] = await Promise.all([
    import('@pydantic/genai-prices'),
    import('./current-generation.ts'),
  ]);
  return findCurrentGeneration({ seed, providers: (await waitForUpdate()) ?? [], at: new Date(nowMs) });
}
