import type { SeedModel } from '../config/seed-catalog.ts';
import { bumpCacheVersion } from '../db/cache-versions.ts';
import type { Database } from '../db/database.ts';
import { seedImagePriceTierOnce } from '../db/image-price-tiers.ts';
import { findModel } from '../db/models.ts';
import { MICROS_PER_USD } from '../lib/money.ts';

/**
 * Writes the seed catalogue's image price tiers that were never written, for models in the database. Existing tiers
 * are never touched and a tier is seeded once only, so an operator's changes and removals survive restarts. Returns
 * how many were added.
 */
export async function seedImagePriceTiers(db: Database, models: readonly SeedModel[]): Promise<number> {
  let added = 0;
  for (const model of models) {
    const tiers = model.listPriceUsd?.perRequestTiers ?? [];
    if (tiers.length === 0 || !(await findModel(db, model.id))) continue;
    for (const tier of tiers) {
      const isAdded = await seedImagePriceTierOnce(db, {
        model_id: model.id,
        quality: tier.quality ?? '*',
        size: tier.size ?? '*',
        list_per_request_micros: Math.round(tier.perRequest * MICROS_PER_USD),
      });
      if (isAdded) added += 1;
    }
  }
  if (added > 0) await bumpCacheVersion(db, 'catalog');
  return added;
}
