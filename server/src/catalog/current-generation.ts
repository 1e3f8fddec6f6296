import type { Provider } from '@pydantic/genai-prices';
import type { SeedModel } from '../config/seed-catalog.ts';
import { findListPriceIn } from './list-price.ts';
import { compareVersions, readModelLine } from './model-line.ts';
import { ownVendorFamilies } from './model-sync-sources.ts';

/**
 * The current generation of each line the seed offers, read from the genai-prices data: for every text model of a
 * family served by its own vendor, the latest version of its line (`model-line.ts`) that the data prices and has not
 * marked deprecated, when it is later than the seed's. Each is a seed entry like the one it follows (limits,
 * capabilities, vendor) with its own id, name, context window and list price from the data, so nothing is copied by
 * hand; the older ids stay in the seed and keep working.
 */
export function findCurrentGeneration(input: {
  seed: readonly SeedModel[];
  providers: readonly Provider[];
  at: Date;
}): SeedModel[] {
  const seedIds = new Set(input.seed.map((model) => model.id));
  const found = new Map<string, SeedModel>();
  for (const model of input.seed) {
    const source = model.listPriceFrom;
    if (model.kind !== 'text' || !source || ownVendorFamilies[model.family] !== model.provider) continue;
    const data = input.providers.find((provider) => provider.id === source.providerId);
    if (!data) continue;
    const line = readModelLine(model.id);
    const newest = data.models
      .filter((candidate) => !candidate.deprecated && !seedIds.has(candidate.id))
      .filter((candidate) => {
        const candidateLine = readModelLine(candidate.id);
        return candidateLine.stem === line.stem && compareVersions(candidateLine.version, line.version) > 0;
      })
      .filter((candidate) => {
        const price = findListPriceIn({ provider: data, modelRef: candidate.id, at: input.at });
        return price !== undefined && price.price.outputRateMicros > 0;
      })
      .toSorted((left, right) => compareVersions(readModelLine(right.id).version, readModelLine(left.id).version))[0];
    if (!newest || found.has(newest.id)) continue;
    found.set(newest.id, {
      ...model,
      id: newest.id,
      displayName: newest.name ?? newest.id,
      upstreamModel: newest.id,
      contextLength: newest.context_window ?? model.contextLength,
      listPriceFrom: { providerId: source.providerId, modelRef: newest.id },
    });
  }
  return [...found.values()];
}
