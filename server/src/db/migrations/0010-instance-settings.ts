import type { Kysely } from 'kysely';

/**
 * Facts about this installation that every node and the CLI must agree on, one row per name. The first is the
 * master key's fingerprint: a process holding another key refuses to start instead of sealing credentials that the
 * other nodes cannot open (docs/configuration.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('instance_settings')
    .addColumn('name', 'text', (column) => column.primaryKey())
    .addColumn('value', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute();
}
