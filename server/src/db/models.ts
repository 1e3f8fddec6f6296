import type { Database } from './database.ts';
import type { ModelRow, NewModelRow } from './schema.ts';

/** Inserts the model unless a row with its id exists (seeding never overwrites an operator's prices). */
export async function insertModelIfAbsent(db: Database, model: NewModelRow): Promise<boolean> {
  const result = await db
    .insertInto('models')
    .values(model)
    .onConflict((conflict) => conflict.column('id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function listModels(db: Database): Promise<ModelRow[]> {
  return db.selectFrom('models').selectAll().orderBy('family').orderBy('id').execute();
}

export async function findModel(db: Database, id: string): Promise<ModelRow | undefined> {
  return db.selectFrom('models').selectAll().where('id', '=', id).executeTakeFirst();
}

export type PriceChange = {
  modelId: string;
  effectiveAt: number;
  inputRateMicros: number;
  outputRateMicros: number;
  cachedInputRateMicros: number | null;
  perRequestMicros: number | null;
  reason: string;
};

/** Sets a model's live price and records the change with its effective date, in one transaction. */
export async function updateModelPrice(db: Database, change: PriceChange): Promise<boolean> {
  return db.transaction().execute(async (transaction) => {
    const result = await transaction
      .updateTable('models')
      .set({
        input_rate_micros: change.inputRateMicros,
        output_rate_micros: change.outputRateMicros,
        cached_input_rate_micros: change.cachedInputRateMicros,
        per_request_micros: change.perRequestMicros,
        price_effective_at: change.effectiveAt,
      })
      .where('id', '=', change.modelId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await transaction
      .insertInto('price_changes')
      .values({
        model_id: change.modelId,
        effective_at: change.effectiveAt,
        input_rate_micros: change.inputRateMicros,
        output_rate_micros: change.outputRateMicros,
        cached_input_rate_micros: change.cachedInputRateMicros,
        per_request_micros: change.perRequestMicros,
        reason: change.reason,
      })
      .execute();
    return true;
  });
}
