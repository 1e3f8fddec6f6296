import type { Kysely } from 'kysely';

/**
 * The operator's second factor (RFC 6238 TOTP): the shared secret sealed with the master key, confirmed once the first
 * code matched, and the last time step used (a code is accepted once); single-use recovery codes, stored as hashes;
 * and which sessions have passed the second factor.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('totp_credentials')
    .addColumn('user_id', 'text', (column) => column.primaryKey())
    .addColumn('secret_ciphertext', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('confirmed_at', 'bigint')
    .addColumn('last_time_step', 'bigint')
    .execute();
  await db.schema
    .createTable('totp_recovery_codes')
    .addColumn('user_id', 'text', (column) => column.notNull())
    .addColumn('code_hash', 'text', (column) => column.notNull())
    .addColumn('used_at', 'bigint')
    .addPrimaryKeyConstraint('totp_recovery_codes_pk', ['user_id', 'code_hash'])
    .execute();
  await db.schema
    .createTable('session_second_factors')
    .addColumn('session_id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull())
    .addColumn('verified_at', 'bigint', (column) => column.notNull())
    .execute();
}
