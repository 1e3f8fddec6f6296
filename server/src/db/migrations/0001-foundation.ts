import { sql, type Kysely } from 'kysely';

/** Users, keys, the live price list, routes, the double-entry ledger and cache-version counters. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('email', 'text', (column) => column.notNull().unique())
    .addColumn('password_hash', 'text', (column) => column.notNull())
    .addColumn('role', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('balance_micros', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id'))
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('key_hash', 'text', (column) => column.notNull().unique())
    .addColumn('prefix', 'text', (column) => column.notNull())
    .addColumn('last_four', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('expires_at', 'bigint')
    .addColumn('spend_cap_micros', 'bigint')
    .addColumn('spent_micros', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('allowed_models', 'text')
    .addColumn('requests_per_minute', 'integer')
    .execute();
  await db.schema.createIndex('api_keys_user_id').on('api_keys').column('user_id').execute();

  await db.schema
    .createTable('models')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('display_name', 'text', (column) => column.notNull())
    .addColumn('family', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('context_length', 'integer', (column) => column.notNull())
    .addColumn('max_output_tokens', 'integer', (column) => column.notNull())
    .addColumn('input_rate_micros', 'bigint', (column) => column.notNull())
    .addColumn('output_rate_micros', 'bigint', (column) => column.notNull())
    .addColumn('cached_input_rate_micros', 'bigint')
    .addColumn('per_request_micros', 'bigint')
    .addColumn('list_input_rate_micros', 'bigint', (column) => column.notNull())
    .addColumn('list_output_rate_micros', 'bigint', (column) => column.notNull())
    .addColumn('list_cached_input_rate_micros', 'bigint')
    .addColumn('list_per_request_micros', 'bigint')
    .addColumn('supports_tools', 'integer', (column) => column.notNull())
    .addColumn('supports_vision', 'integer', (column) => column.notNull())
    .addColumn('price_effective_at', 'bigint', (column) => column.notNull())
    .addColumn('enabled', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('price_changes')
    .addColumn('model_id', 'text', (column) => column.notNull().references('models.id'))
    .addColumn('effective_at', 'bigint', (column) => column.notNull())
    .addColumn('input_rate_micros', 'bigint', (column) => column.notNull())
    .addColumn('output_rate_micros', 'bigint', (column) => column.notNull())
    .addColumn('cached_input_rate_micros', 'bigint')
    .addColumn('per_request_micros', 'bigint')
    .addColumn('reason', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('price_changes_pk', ['model_id', 'effective_at'])
    .execute();

  await db.schema
    .createTable('routes')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('model_id', 'text', (column) => column.notNull().references('models.id'))
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('base_url', 'text', (column) => column.notNull())
    .addColumn('credential_ciphertext', 'text')
    .addColumn('upstream_model', 'text', (column) => column.notNull())
    .addColumn('priority', 'integer', (column) => column.notNull())
    .addColumn('weight', 'integer', (column) => column.notNull())
    .addColumn('enabled', 'integer', (column) => column.notNull())
    .addColumn('is_sandbox', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('routes_model_id').on('routes').column('model_id').execute();

  await db.schema
    .createTable('ledger_transactions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('idempotency_key', 'text', (column) => column.notNull().unique())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('reason', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('ledger_entries')
    .addColumn('transaction_id', 'text', (column) => column.notNull().references('ledger_transactions.id'))
    .addColumn('account', 'text', (column) => column.notNull())
    .addColumn('amount_micros', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('ledger_entries_pk', ['transaction_id', 'account'])
    .execute();
  await db.schema.createIndex('ledger_entries_account').on('ledger_entries').column('account').execute();

  await db.schema
    .createTable('cache_versions')
    .addColumn('name', 'text', (column) => column.primaryKey())
    .addColumn('version', 'bigint', (column) => column.notNull())
    .execute();
  await sql`insert into cache_versions (name, version) values ('api_keys', 1), ('catalog', 1), ('routes', 1)`.execute(
    db,
  );
}
