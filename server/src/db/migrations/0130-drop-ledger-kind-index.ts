import type { Kysely } from 'kysely';

/**
 * `ledger_transactions_kind_created` (0006) serves no query: the ledger is read by account (`ledger_entries_account`)
 * and by idempotency key, never by kind first, and every settled call paid for it with an insert into one more index
 * page per group commit of the SQLite writer thread (decision 1891).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('ledger_transactions_kind_created').ifExists().execute();
}
