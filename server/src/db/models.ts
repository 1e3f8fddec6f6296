import type { Database } from './database.ts';
import type { Updateable } from 'kysely';
import type { ModelRow, ModelsTable, NewModelRow } from './schema.ts';

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
  return db.transaction().execute(async (transaction) => writeModelPrice(transaction, change));
}

/** The columns of a model the operator may change after it is added (never its id, kind or creation time). */
export type ModelChanges = Omit<Updateable<ModelsTable>, 'id' | 'kind' | 'created_at' | 'retired_at' | 'successor_id'>;

/**
 * Inserts a new model (with its first price history entry) or, when `isNew` is false, changes one, and records a
 * price change when there is one: all in one transaction, so a failure leaves nothing half-done. False when the
 * id is taken (insert) or missing (update).
 */
export async function writeModel(
  db: Database,
  input:
    | { isNew: true; row: NewModelRow; priceChange: PriceChange }
    | { isNew: false; modelId: string; changes: ModelChanges; priceChange: PriceChange | undefined },
): Promise<boolean> {
  return db.transaction().execute(async (transaction) => {
    if (input.isNew) {
      if (!(await insertModelIfAbsent(transaction, input.row))) return false;
      return writeModelPrice(transaction, input.priceChange);
    }
    if (Object.keys(input.changes).length > 0) {
      const result = await transaction
        .updateTable('models')
        .set(input.changes)
        .where('id', '=', input.modelId)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
    } else if (!(await findModel(transaction, input.modelId))) {
      return false;
    }
    return input.priceChange ? writeModelPrice(transaction, input.priceChange) : true;
  });
}

/**
 * Retires a model (or, with `retiredAtMs` null, restores it). Refused, inside the same transaction as the change,
 * when another retired model names this one as its successor: their callers are sent here. Returns the ids that
 * name it (empty when the change was made), or undefined when there is no such model.
 */
export async function setModelRetired(
  db: Database,
  input: { modelId: string; retiredAtMs: number | null; successorId: string | null },
): Promise<{ namedBy: string[] } | undefined> {
  return db.transaction().execute(async (transaction) => {
    if (input.retiredAtMs !== null) {
      const namedBy = await transaction
        .selectFrom('models')
        .select('id')
        .where('successor_id', '=', input.modelId)
        .where('id', '!=', input.modelId)
        .execute();
      if (namedBy.length > 0) return { namedBy: namedBy.map((row) => row.id) };
    }
    const result = await transaction
      .updateTable('models')
      .set({ retired_at: input.retiredAtMs, successor_id: input.successorId })
      .where('id', '=', input.modelId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 0 ? undefined : { namedBy: [] };
  });
}

/** Fills the serving vendor and upstream id of rows seeded before they were stored (migration 0040). */
export async function fillModelVendors(
  db: Database,
  vendors: readonly { modelId: string; provider: string; upstreamModel: string }[],
): Promise<void> {
  for (const vendor of vendors) {
    await db
      .updateTable('models')
      .set({ provider: vendor.provider, upstream_model: vendor.upstreamModel })
      .where('id', '=', vendor.modelId)
      .where('provider', 'is', null)
      .execute();
  }
}

async function writeModelPrice(transaction: Database, change: PriceChange): Promise<boolean> {
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
}
