import type { Database } from './database.ts';
import type { PriceChange } from './models.ts';

/** List rates in micro-USD per 1M tokens, as `models` stores them. */
export type StoredListRates = { inputMicros: number; outputMicros: number; cachedInputMicros: number | null };

/**
 * Sets a model's list price only if it is still `from` (compare and set), records it in the list price history and,
 * when given, our own price change, all in one transaction. False when another sync (or an operator) changed the
 * list price first: the change is then not applied twice.
 */
export async function applyListPriceChange(
  db: Database,
  input: {
    modelId: string;
    from: StoredListRates;
    to: StoredListRates;
    effectiveAtMs: number;
    recordedAtMs: number;
    source: string;
    ourPrice: PriceChange | undefined;
  },
): Promise<boolean> {
  return db.transaction().execute(async (transaction) => {
    const { from, to } = input;
    const result = await transaction
      .updateTable('models')
      .set({
        list_input_rate_micros: to.inputMicros,
        list_output_rate_micros: to.outputMicros,
        list_cached_input_rate_micros: to.cachedInputMicros,
      })
      .where('id', '=', input.modelId)
      .where('list_input_rate_micros', '=', from.inputMicros)
      .where('list_output_rate_micros', '=', from.outputMicros)
      .where('list_cached_input_rate_micros', from.cachedInputMicros === null ? 'is' : '=', from.cachedInputMicros)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await transaction
      .insertInto('list_price_changes')
      .values({
        model_id: input.modelId,
        recorded_at: input.recordedAtMs,
        effective_at: input.effectiveAtMs,
        list_input_rate_micros: to.inputMicros,
        list_output_rate_micros: to.outputMicros,
        list_cached_input_rate_micros: to.cachedInputMicros,
        source: input.source,
      })
      .execute();
    const ours = input.ourPrice;
    if (ours) {
      await transaction
        .updateTable('models')
        .set({
          input_rate_micros: ours.inputRateMicros,
          output_rate_micros: ours.outputRateMicros,
          cached_input_rate_micros: ours.cachedInputRateMicros,
          price_effective_at: ours.effectiveAt,
        })
        .where('id', '=', input.modelId)
        .execute();
      await transaction
        .insertInto('price_changes')
        .values({
          model_id: ours.modelId,
          effective_at: ours.effectiveAt,
          input_rate_micros: ours.inputRateMicros,
          output_rate_micros: ours.outputRateMicros,
          cached_input_rate_micros: ours.cachedInputRateMicros,
          per_request_micros: ours.perRequestMicros,
          reason: ours.reason,
        })
        .execute();
    }
    return true;
  });
}

/**
 * Retires a live model (no successor). `already` when it was retired first (by another sync), `is_successor` when
 * a retired model names it as successor; checked and written in one transaction.
 */
export async function retireLiveModel(
  db: Database,
  input: { modelId: string; nowMs: number },
): Promise<'retired' | 'already' | 'is_successor'> {
  return db.transaction().execute(async (transaction) => {
    const namedBy = await transaction
      .selectFrom('models')
      .select('id')
      .where('successor_id', '=', input.modelId)
      .where('id', '!=', input.modelId)
      .executeTakeFirst();
    if (namedBy) return 'is_successor';
    const result = await transaction
      .updateTable('models')
      .set({ retired_at: input.nowMs, successor_id: null })
      .where('id', '=', input.modelId)
      .where('retired_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 0 ? 'already' : 'retired';
  });
}

/** A model's recorded list price changes, newest first. */
export async function listListPriceChanges(db: Database, modelId: string) {
  return db
    .selectFrom('list_price_changes')
    .selectAll()
    .where('model_id', '=', modelId)
    .orderBy('recorded_at', 'desc')
    .execute();
}
