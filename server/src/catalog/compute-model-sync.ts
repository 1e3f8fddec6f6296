import type { Provider } from '@pydantic/genai-prices';
import type { ModelFamily } from '../config/seed-catalog.ts';
import type { ModelRow } from '../db/schema.ts';
import { isProviderId } from '../providers/provider-id.ts';
import type { VendorModelListing } from './fetch-vendor-model-lists.ts';
import { findListPriceIn, type DataListPrice } from './list-price.ts';
import { compareVersions, readModelLine } from './model-line.ts';
import { ownVendorFamilies, priceDataProviderIds } from './model-sync-sources.ts';

/** List rates in micro-USD per 1M tokens. */
export type SyncRates = { inputMicros: number; outputMicros: number; cachedInputMicros: number | null };

export type NewModelFound = {
  id: string;
  family: ModelFamily;
  foundIn: 'price_data' | 'vendor_list' | 'both';
  isNewVersion: boolean;
  listPrice: (DataListPrice & { rates: SyncRates }) | undefined;
  /** The offered model of the same line (or, without one, the family's newest text model) it takes its limits from. */
  template: ModelRow | undefined;
};

export type ListPriceChangeFound = { model: ModelRow; from: SyncRates; to: SyncRates; effectiveAtMs: number };

export type ModelSyncDiff = {
  newModels: NewModelFound[];
  listPriceChanges: ListPriceChangeFound[];
  unlistedModels: ModelRow[];
};

/**
 * Compares the catalogue with the price data and the vendors' model lists (docs/catalogue.md, "Sync"). Pure: the
 * sources are read before, and nothing is written here.
 */
export function computeModelSync(input: {
  models: readonly ModelRow[];
  priceData: readonly Provider[];
  listings: readonly VendorModelListing[];
  nowMs: number;
}): ModelSyncDiff {
  const at = new Date(input.nowMs);
  const live = input.models.filter((model) => model.retired_at === null);
  return {
    newModels: findNewModels({ ...input, live, at }),
    listPriceChanges: findListPriceChanges({ live, priceData: input.priceData, at }),
    unlistedModels: live.filter((model) => {
      const listing = input.listings.find((candidate) => candidate.provider === model.provider);
      return listing?.modelIds !== undefined && !listing.modelIds.has(model.upstream_model ?? model.id);
    }),
  };
}

function findNewModels(input: {
  models: readonly ModelRow[];
  live: readonly ModelRow[];
  priceData: readonly Provider[];
  listings: readonly VendorModelListing[];
  at: Date;
}): NewModelFound[] {
  const known = new Set(input.models.flatMap((model) => [model.id, model.upstream_model ?? model.id]));
  const found: NewModelFound[] = [];
  for (const [familyName, vendor] of Object.entries(ownVendorFamilies)) {
    const family = familyName as ModelFamily;
    const data = input.priceData.find((provider) => provider.id === priceDataProviderIds[vendor]);
    const textModels = input.live.filter((model) => model.family === family && model.kind === 'text');
    const fromData = (data?.models ?? []).filter((model) => !model.deprecated).map((model) => model.id);
    const listing = input.listings.find((candidate) => candidate.provider === vendor)?.modelIds;
    const listed = [...(listing ?? [])];
    for (const id of new Set([...fromData, ...listed])) {
      // A model the vendor's own list leaves out is not offered to its callers yet, whatever the price data says.
      if (known.has(id) || (listing !== undefined && !listing.has(id))) continue;
      const line = readModelLine(id);
      const sameLine = textModels.filter((model) => readModelLine(model.id).stem === line.stem);
      const newest = sameLine.toSorted((left, right) =>
        compareVersions(readModelLine(right.id).version, readModelLine(left.id).version),
      )[0];
      const isNewVersion = newest !== undefined && compareVersions(line.version, readModelLine(newest.id).version) > 0;
      const isListed = listed.includes(id);
      // The price data names every model its vendor ever sold: only later versions of offered lines are news.
      if (!isListed && !isNewVersion) continue;
      const price = data ? findListPriceIn({ provider: data, modelRef: id, at: input.at }) : undefined;
      found.push({
        id,
        family,
        foundIn: isListed ? (fromData.includes(id) ? 'both' : 'vendor_list') : 'price_data',
        isNewVersion,
        listPrice: price && price.price.outputRateMicros > 0 ? { ...price, rates: toRates(price) } : undefined,
        template: newest ?? textModels.toSorted((left, right) => right.created_at - left.created_at)[0],
      });
    }
  }
  return found;
}

function findListPriceChanges(input: {
  live: readonly ModelRow[];
  priceData: readonly Provider[];
  at: Date;
}): ListPriceChangeFound[] {
  const changes: ListPriceChangeFound[] = [];
  for (const model of input.live) {
    const vendor = model.provider;
    if (model.kind === 'image' || vendor === null || !isProviderId(vendor)) continue;
    const data = input.priceData.find((provider) => provider.id === priceDataProviderIds[vendor]);
    if (!data) continue;
    const price =
      findListPriceIn({ provider: data, modelRef: model.upstream_model ?? model.id, at: input.at }) ??
      findListPriceIn({ provider: data, modelRef: model.id, at: input.at });
    if (!price) continue;
    const from = {
      inputMicros: model.list_input_rate_micros,
      outputMicros: model.list_output_rate_micros,
      cachedInputMicros: model.list_cached_input_rate_micros,
    };
    // An embedding model is billed per input token only: the data's other rates for it are not ours to follow.
    const to = model.kind === 'embedding' ? { ...from, inputMicros: price.price.inputRateMicros } : toRates(price);
    if (to.inputMicros === from.inputMicros && to.outputMicros === from.outputMicros) {
      if (to.cachedInputMicros === from.cachedInputMicros) continue;
    }
    changes.push({ model, from, to, effectiveAtMs: price.effectiveAtMs ?? input.at.getTime() });
  }
  return changes;
}

function toRates(price: DataListPrice): SyncRates {
  return {
    inputMicros: price.price.inputRateMicros,
    outputMicros: price.price.outputRateMicros,
    cachedInputMicros: price.price.cachedInputRateMicros,
  };
}
