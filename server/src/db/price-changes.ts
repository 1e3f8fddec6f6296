import type { Database } from './database.ts';
import type { PriceChangesTable } from './schema.ts';

/** A model's recorded price changes, newest first. */
export async function listPriceChanges(
  db: Database,
  input: { modelId: string; limit: number },
): Promise<PriceChangesTable[]> {
  return db
    .selectFrom('price_changes')
    .selectAll()
    .where('model_id', '=', input.modelId)
    .orderBy('effective_at', 'desc')
    .limit(input.limit)
    .execute();
}
