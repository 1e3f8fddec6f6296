import type { Kysely } from 'kysely';

/**
 * Account deletion (docs/accounts.md): when an account was deleted. The row stays, without its address or password,
 * because the ledger and the usage records that the books need refer to its id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('deleted_at', 'bigint').execute();
}
