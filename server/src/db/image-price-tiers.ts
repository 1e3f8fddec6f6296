import type { Database } from './database.ts';
import type { ImagePriceTiersTable } from './schema.ts';

export async function listImagePriceTiers(db: Database): Promise<ImagePriceTiersTable[]> {
  return db
    .selectFrom('image_price_tiers')
    .selectAll()
    .orderBy('model_id')
    .orderBy('quality')
    .orderBy('size')
    .execute();
}

/** Inserts a tier unless the model already has one for that quality and size; true when it was added. */
export async function insertImagePriceTierIfAbsent(db: Database, tier: ImagePriceTiersTable): Promise<boolean> {
  const result = await db
    .insertInto('image_price_tiers')
    .values(tier)
    .onConflict((conflict) => conflict.columns(['model_id', 'quality', 'size']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
