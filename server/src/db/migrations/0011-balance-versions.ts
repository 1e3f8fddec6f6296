import type { Kysely } from 'kysely';

/**
 * A per-user counter that every ledger change to the user's balance raises in the same UPDATE, under the row lock.
 * Nodes cache balances (in memory or in Redis) and apply a balance read from the database only when its version is
 * newer than the one they hold, so a stale read can never overwrite a newer balance (docs/billing.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('balance_version', 'bigint', (column) => column.notNull().defaultTo(0))
    .execute();
}
