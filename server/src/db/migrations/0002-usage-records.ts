import { sql, type Kysely } from 'kysely';

/** One row per API call: counts, times, cost and route; never request or response text. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('usage_records')
    .addColumn('request_id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull())
    .addColumn('api_key_id', 'text')
    .addColumn('model_id', 'text', (column) => column.notNull())
    .addColumn('endpoint', 'text', (column) => column.notNull())
    .addColumn('route_id', 'text')
    .addColumn('provider', 'text')
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('error_code', 'text')
    .addColumn('input_tokens', 'bigint', (column) => column.notNull())
    .addColumn('cached_tokens', 'bigint', (column) => column.notNull())
    .addColumn('output_tokens', 'bigint', (column) => column.notNull())
    .addColumn('reasoning_tokens', 'bigint', (column) => column.notNull())
    .addColumn('image_count', 'integer', (column) => column.notNull())
    .addColumn('cost_micros', 'bigint', (column) => column.notNull())
    .addColumn('time_to_first_token_ms', 'integer')
    .addColumn('latency_ms', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('usage_records_user_created')
    .on('usage_records')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('usage_records_created').on('usage_records').column('created_at').execute();
  await sql`insert into cache_versions (name, version) values ('balances', 1)`.execute(db);
}
