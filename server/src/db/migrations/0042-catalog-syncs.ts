import type { Kysely } from 'kysely';

/**
 * A catalogue sync the operator looked at (`model sync`): its differences as JSON, where they came from, and which
 * of them were applied. `applied_at` is set by one conditional update, so two operators applying the same sync at
 * once apply it once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('catalog_syncs')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('sources', 'text', (column) => column.notNull())
    .addColumn('changes', 'text', (column) => column.notNull())
    .addColumn('applied_at', 'bigint')
    .addColumn('applied_change_ids', 'text')
    .execute();
}
