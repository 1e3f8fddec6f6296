import type { Kysely } from 'kysely';

/**
 * The history of vendors' list prices, as model syncs apply them: each change with the date it took effect (the
 * price data's own date when it has one) and when it was recorded. One row per model and recording time; a sync
 * applies a change only when the stored list price is still the one it compared against, so the same change is
 * recorded once however many operators apply it at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('list_price_changes')
    .addColumn('model_id', 'text', (column) => column.notNull().references('models.id'))
    .addColumn('recorded_at', 'bigint', (column) => column.notNull())
    .addColumn('effective_at', 'bigint', (column) => column.notNull())
    .addColumn('list_input_rate_micros', 'bigint', (column) => column.notNull())
    .addColumn('list_output_rate_micros', 'bigint', (column) => column.notNull())
    .addColumn('list_cached_input_rate_micros', 'bigint')
    .addColumn('source', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('list_price_changes_pk', ['model_id', 'recorded_at'])
    .execute();
}
