import { sql, type Kysely } from 'kysely';

/**
 * Per-account terms the operator sets (contract discount, custom rate limit, per-model prices), subscription plans
 * and each account's subscription. Discounts are integer basis points (100 = 1%).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_terms')
    .addColumn('user_id', 'text', (column) => column.primaryKey().references('users.id'))
    .addColumn('contract_discount_basis_points', 'integer', (column) => column.notNull())
    .addColumn('requests_per_minute', 'integer')
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('account_model_prices')
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id'))
    .addColumn('model_id', 'text', (column) => column.notNull().references('models.id'))
    .addColumn('input_rate_micros', 'bigint', (column) => column.notNull())
    .addColumn('output_rate_micros', 'bigint', (column) => column.notNull())
    .addColumn('cached_input_rate_micros', 'bigint')
    .addColumn('per_request_micros', 'bigint')
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('account_model_prices_pk', ['user_id', 'model_id'])
    .execute();

  await db.schema
    .createTable('subscription_plans')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('price_micros', 'bigint', (column) => column.notNull())
    .addColumn('discount_basis_points', 'integer', (column) => column.notNull())
    .addColumn('is_active', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('user_id', 'text', (column) => column.primaryKey().references('users.id'))
    .addColumn('plan_id', 'text', (column) => column.notNull().references('subscription_plans.id'))
    .addColumn('discount_basis_points', 'integer', (column) => column.notNull())
    .addColumn('period_started_at', 'bigint', (column) => column.notNull())
    .addColumn('expires_at', 'bigint', (column) => column.notNull())
    .addColumn('is_auto_renewing', 'integer', (column) => column.notNull())
    .addColumn('renewal_failure', 'text')
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('subscriptions_expires_at').on('subscriptions').column('expires_at').execute();

  await db.schema
    .createIndex('ledger_transactions_kind_created')
    .on('ledger_transactions')
    .columns(['kind', 'created_at'])
    .execute();

  await sql`insert into cache_versions (name, version) values ('account_terms', 1)`.execute(db);
}
