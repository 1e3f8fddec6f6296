import type { Kysely } from 'kysely';

/**
 * Fiat top-ups (docs/payments.md): one order per payment attempt with its locked quote, every state change of an
 * order with its cause, the provider notifications already handled (by event key, so a re-delivery does nothing),
 * and the RUB→USD rates fetched from the Central Bank of Russia. No payload text is kept: ids, amounts and times only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('top_up_orders')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull())
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('method', 'text', (column) => column.notNull())
    .addColumn('pay_minor_units', 'bigint', (column) => column.notNull())
    .addColumn('pay_currency', 'text', (column) => column.notNull())
    .addColumn('credit_micros', 'bigint', (column) => column.notNull())
    .addColumn('rate_micros_per_usd', 'bigint', (column) => column.notNull())
    .addColumn('rate_source', 'text', (column) => column.notNull())
    .addColumn('markup_basis_points', 'integer', (column) => column.notNull())
    .addColumn('quote_expires_at', 'bigint', (column) => column.notNull())
    .addColumn('provider_payment_id', 'text')
    .addColumn('confirmation_url', 'text')
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('is_sandbox', 'integer', (column) => column.notNull())
    .addColumn('is_paid_after_expiry', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('review_reason', 'text')
    .addColumn('credited_micros', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('refunded_minor_units', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('refunded_micros', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('charged_back_minor_units', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('charged_back_micros', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .addUniqueConstraint('top_up_orders_provider_payment', ['provider', 'provider_payment_id'])
    .execute();
  await db.schema.createIndex('top_up_orders_user').on('top_up_orders').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('top_up_orders_status').on('top_up_orders').columns(['status', 'created_at']).execute();
  await db.schema
    .createTable('top_up_order_transitions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('order_id', 'text', (column) => column.notNull())
    .addColumn('sequence', 'integer', (column) => column.notNull())
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', (column) => column.notNull())
    .addColumn('cause', 'text', (column) => column.notNull())
    .addColumn('at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('top_up_order_transitions_order')
    .on('top_up_order_transitions')
    .columns(['order_id', 'sequence'])
    .unique()
    .execute();
  await db.schema
    .createTable('payment_provider_events')
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('event_key', 'text', (column) => column.notNull())
    .addColumn('order_id', 'text')
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('received_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('payment_provider_events_key', ['provider', 'event_key'])
    .execute();
  await db.schema
    .createTable('fx_rates')
    .addColumn('currency', 'text', (column) => column.notNull())
    .addColumn('rate_date', 'text', (column) => column.notNull())
    .addColumn('micros_per_usd', 'bigint', (column) => column.notNull())
    .addColumn('source', 'text', (column) => column.notNull())
    .addColumn('fetched_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('fx_rates_key', ['currency', 'rate_date'])
    .execute();
}
