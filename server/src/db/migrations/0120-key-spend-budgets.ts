import type { Kysely } from 'kysely';

/**
 * A key's own spend budgets per UTC day and per UTC month, in micro-USD (null: none), beside its lifetime cap
 * (`spend_cap_micros`). What a key spent in a day or month is read from its usage records, so nothing new is written
 * per call; the index makes that sum cheap for one key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('daily_budget_micros', 'bigint').execute();
  await db.schema.alterTable('api_keys').addColumn('monthly_budget_micros', 'bigint').execute();
  await db.schema
    .createIndex('usage_records_key_created')
    .on('usage_records')
    .columns(['api_key_id', 'created_at'])
    .execute();
}
