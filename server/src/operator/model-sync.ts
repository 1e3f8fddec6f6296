import type { ApplyModelSyncRequest, ModelSyncReport, ModelSyncResult } from '../../../contract/operator-model-sync.ts';
import { applyPricingRule } from '../catalog/apply-pricing-rule.ts';
import {
  computeModelSync,
  type ModelSyncDiff,
  type NewModelFound,
  type SyncRates,
} from '../catalog/compute-model-sync.ts';
import type { ModelSyncSources } from '../catalog/read-model-sync-sources.ts';
import { bumpCacheVersion } from '../db/cache-versions.ts';
import { applyListPriceChange, retireLiveModel } from '../db/model-sync.ts';
import { listModels } from '../db/models.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import { ConflictError } from '../errors/conflict-error.ts';
import { microsToUsd } from '../lib/money.ts';
import { findFamilyVendor } from '../catalog/model-family.ts';
import { addModel, type ManageModelsDeps } from './manage-models.ts';

export type ModelSyncDeps = ManageModelsDeps & { readSources: () => Promise<ModelSyncSources> };

type SyncResultRow = ModelSyncResult['results'][number];

/** Reads the sources and compares them with the catalogue; writes nothing. */
export async function previewModelSync(deps: ModelSyncDeps): Promise<ModelSyncReport> {
  const sources = await deps.readSources();
  const diff = computeModelSync({
    models: await listModels(deps.db),
    priceData: sources.priceData.providers,
    listings: sources.listings,
    nowMs: deps.clock.nowMs(),
  });
  return describeModelSync(sources, diff);
}

/**
 * Applies the changes a fresh comparison finds, all of them or those of the ids asked for. Each change is written
 * only if the catalogue is still as compared (a model id not taken, the old list price, a live model), so two
 * operators applying the same sync at once apply each change once: the later one reports `already_applied`.
 */
export async function applyModelSync(
  deps: ModelSyncDeps,
  input: ApplyModelSyncRequest & { onlyNewVersions?: boolean },
): Promise<ModelSyncResult> {
  const sources = await deps.readSources();
  const nowMs = deps.clock.nowMs();
  const diff = computeModelSync({
    models: await listModels(deps.db),
    priceData: sources.priceData.providers,
    listings: sources.listings,
    nowMs,
  });
  const wanted = input.apply === 'all' ? undefined : new Set(input.apply);
  const isWanted = (id: string) => wanted === undefined || wanted.has(id);
  const results: SyncResultRow[] = [];
  const sourceName = sources.priceData.source === 'published' ? 'genai-prices (published)' : 'genai-prices (bundled)';
  for (const found of diff.newModels) {
    if (!isWanted(found.id) || (input.onlyNewVersions === true && !found.isNewVersion)) continue;
    results.push(await addFoundModel(deps, found, sourceName));
  }
  if (input.onlyNewVersions !== true) {
    for (const change of diff.listPriceChanges) {
      if (!isWanted(change.model.id)) continue;
      const isApplied = await applyListPriceChange(deps.db, {
        modelId: change.model.id,
        from: change.from,
        to: change.to,
        effectiveAtMs: change.effectiveAtMs,
        recordedAtMs: nowMs,
        source: sourceName,
        ourPrice: followListPrice(deps, { change, nowMs }),
      });
      results.push({
        id: change.model.id,
        change: 'list_price',
        outcome: isApplied ? 'applied' : 'already_applied',
        message: null,
      });
    }
    for (const model of diff.unlistedModels) {
      if (!isWanted(model.id)) continue;
      const outcome = await retireLiveModel(deps.db, { modelId: model.id, nowMs });
      results.push({
        id: model.id,
        change: 'retire',
        outcome: outcome === 'retired' ? 'applied' : outcome === 'already' ? 'already_applied' : 'refused',
        message: outcome === 'is_successor' ? `\`${model.id}\` is the successor of another model; not retired.` : null,
      });
    }
  }
  if (results.some((result) => result.outcome === 'applied')) {
    await bumpCacheVersion(deps.db, 'catalog');
    await deps.priceList.reload();
  }
  const touched = new Set(results.map((result) => result.id));
  return {
    price_source: describeSource(sources),
    results,
    not_found: wanted === undefined ? [] : [...wanted].filter((id) => !touched.has(id)),
  };
}

/** Adds a found model through the same checks as `model add`: its list price, our price by the default rule. */
async function addFoundModel(deps: ModelSyncDeps, found: NewModelFound, source: string): Promise<SyncResultRow> {
  const { listPrice, template } = found;
  if (!listPrice || !template) {
    const why = listPrice ? 'no model of its family to take limits from' : 'the price data has no list price for it';
    return { id: found.id, change: 'add', outcome: 'refused', message: `Not added: ${why}; add it by hand.` };
  }
  try {
    await addModel(deps, {
      id: found.id,
      kind: 'text',
      display_name: listPrice.modelName ?? found.id,
      family: found.family,
      context_length: listPrice.contextWindow ?? template.context_length,
      max_output_tokens: template.max_output_tokens,
      supports_tools: template.supports_tools === 1,
      supports_vision: template.supports_vision === 1,
      supports_json_schema: template.supports_json_schema === 1,
      supports_reasoning: template.supports_reasoning === 1,
      supports_web_search: template.supports_web_search === 1,
      list_input_usd_per_million: microsToUsd(listPrice.rates.inputMicros),
      list_output_usd_per_million: microsToUsd(listPrice.rates.outputMicros),
      list_cached_input_usd_per_million:
        listPrice.rates.cachedInputMicros === null ? null : microsToUsd(listPrice.rates.cachedInputMicros),
      reason: `added by model sync (${source})`,
    });
    return { id: found.id, change: 'add', outcome: 'applied', message: null };
  } catch (error) {
    if (error instanceof ConflictError)
      return { id: found.id, change: 'add', outcome: 'already_applied', message: null };
    if (error instanceof GatewayError)
      return { id: found.id, change: 'add', outcome: 'refused', message: error.message };
    throw error;
  }
}

/**
 * Our price follows a list price change when it is still what the default pricing rule made of the old list price
 * (a price the operator set by hand is left alone, and flagged if the change puts it below cost).
 */
function followListPrice(
  deps: ModelSyncDeps,
  input: { change: ModelSyncDiff['listPriceChanges'][number]; nowMs: number },
) {
  const { model, from, to } = input.change;
  const rule = (rates: SyncRates) =>
    applyPricingRule(deps.pricingRule, {
      list: { ...rates, perRequestMicros: null },
      cost: { ...rates, perRequestMicros: null },
    });
  const before = rule(from);
  const isRulePrice =
    before.inputMicros === model.input_rate_micros &&
    before.outputMicros === model.output_rate_micros &&
    before.cachedInputMicros === model.cached_input_rate_micros;
  if (!isRulePrice) return undefined;
  const after = rule(to);
  return {
    modelId: model.id,
    effectiveAt: Math.max(input.nowMs, model.price_effective_at + 1),
    inputRateMicros: after.inputMicros,
    outputRateMicros: after.outputMicros,
    cachedInputRateMicros: after.cachedInputMicros,
    perRequestMicros: model.per_request_micros,
    reason: 'follows the vendor list price (model sync)',
  };
}

function describeSource(sources: ModelSyncSources): ModelSyncReport['price_source'] {
  const { priceData } = sources;
  return { kind: priceData.source, url: priceData.url ?? null, problem: priceData.problem ?? null };
}

function describeRates(rates: SyncRates) {
  return {
    input_usd_per_million: microsToUsd(rates.inputMicros),
    output_usd_per_million: microsToUsd(rates.outputMicros),
    cached_input_usd_per_million: rates.cachedInputMicros === null ? null : microsToUsd(rates.cachedInputMicros),
  };
}

function describeModelSync(sources: ModelSyncSources, diff: ModelSyncDiff): ModelSyncReport {
  return {
    price_source: describeSource(sources),
    vendor_lists: sources.listings.map((listing) => ({
      provider: listing.provider,
      model_count: listing.modelIds === undefined ? null : listing.modelIds.size,
      problem: listing.problem ?? null,
    })),
    new_models: diff.newModels.map((found) => ({
      id: found.id,
      family: found.family,
      provider: findFamilyVendor(found.family),
      display_name: found.listPrice?.modelName ?? found.id,
      found_in: found.foundIn,
      is_new_version: found.isNewVersion,
      list_price: found.listPrice ? describeRates(found.listPrice.rates) : null,
      context_length: found.listPrice?.contextWindow ?? null,
    })),
    list_price_changes: diff.listPriceChanges.map((change) => ({
      id: change.model.id,
      family: change.model.family,
      from: describeRates(change.from),
      to: describeRates(change.to),
      effective_at: new Date(change.effectiveAtMs).toISOString(),
    })),
    unlisted_models: diff.unlistedModels.map((model) => ({
      id: model.id,
      family: model.family,
      provider: model.provider ?? '',
    })),
  };
}
