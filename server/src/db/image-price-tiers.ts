import type { Database } from './database.ts';
import type { ImagePriceTiersTable } from './schema.ts';

/** `quality` and `size` of a tier as stored: `*` for any. */
export type StoredImagePriceTierKey = { modelId: string; quality: string; size: string };

export async function listImagePriceTiers(db: Database): Promise<ImagePriceTiersTable[]> {
  return db
    .selectFrom('image_price_tiers')
    .selectAll()
    .orderBy('model_id')
    .orderBy('quality')
    .orderBy('size')
    .execute();
}

export async function listModelImagePriceTiers(db: Database, modelId: string): Promise<ImagePriceTiersTable[]> {
  return db
    .selectFrom('image_price_tiers')
    .selectAll()
    .where('model_id', '=', modelId)
    .orderBy('quality')
    .orderBy('size')
    .execute();
}

/**
 * Writes a seed-catalogue tier the first time only: marks it seeded and adds it unless the model already has a tier
 * for that quality and size, in one transaction. A tier seeded before is never written again, so one the operator
 * removed stays removed. True when the tier was added.
 */
export async function seedImagePriceTierOnce(db: Database, tier: ImagePriceTiersTable): Promise<boolean> {
  return db.transaction().execute(async (transaction) => {
    const marked = await transaction
      .insertInto('image_price_tier_seeds')
      .values({ model_id: tier.model_id, quality: tier.quality, size: tier.size })
      .onConflict((conflict) => conflict.columns(['model_id', 'quality', 'size']).doNothing())
      .executeTakeFirst();
    if (Number(marked.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    const added = await transaction
      .insertInto('image_price_tiers')
      .values(tier)
      .onConflict((conflict) => conflict.columns(['model_id', 'quality', 'size']).doNothing())
      .executeTakeFirst();
    return Number(added.numInsertedOrUpdatedRows ?? 0) > 0;
  });
}

/** Sets the list price of a tier, adding the tier when the model has none for that quality and size. */
export async function upsertImagePriceTier(db: Database, tier: ImagePriceTiersTable): Promise<void> {
  await db
    .insertInto('image_price_tiers')
    .values(tier)
    .onConflict((conflict) =>
      conflict
        .columns(['model_id', 'quality', 'size'])
        .doUpdateSet({ list_per_request_micros: tier.list_per_request_micros }),
    )
    .execute();
}

/** Removes one tier; true when it existed. */
export async function deleteImagePriceTier(db: Database, key: StoredImagePriceTierKey): Promise<boolean> {
  const result = await db
    .deleteFrom('image_price_tiers')
    .where('model_id', '=', key.modelId)
    .where('quality', '=', key.quality)
    .where('size', '=', key.size)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
