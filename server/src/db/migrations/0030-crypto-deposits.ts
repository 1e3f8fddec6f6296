import type { Kysely } from 'kysely';

/**
 * USDT top-ups (docs/payments.md §USDT): the deposit address of each crypto order (derived from the operator's xpub
 * with its index, or the processor's), the amount asked and the rate locked, and every credited transfer by its
 * transaction id and log index (the operator console links them to a block explorer). Ids, amounts and times only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('crypto_deposits')
    .addColumn('order_id', 'text', (column) => column.primaryKey())
    .addColumn('way', 'text', (column) => column.notNull())
    .addColumn('pay_address', 'text', (column) => column.notNull())
    .addColumn('derivation_index', 'integer')
    .addColumn('expected_micro_usdt', 'bigint', (column) => column.notNull())
    .addColumn('micro_usdt_per_usd', 'bigint', (column) => column.notNull())
    .addColumn('received_micro_usdt', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('seen_tx_id', 'text')
    .addColumn('seen_at', 'bigint')
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addUniqueConstraint('crypto_deposits_index', ['way', 'derivation_index'])
    .addUniqueConstraint('crypto_deposits_address', ['way', 'pay_address'])
    .execute();
  await db.schema
    .createTable('crypto_deposit_transfers')
    .addColumn('way', 'text', (column) => column.notNull())
    .addColumn('transfer_key', 'text', (column) => column.notNull())
    .addColumn('order_id', 'text', (column) => column.notNull())
    .addColumn('tx_id', 'text', (column) => column.notNull())
    .addColumn('amount_micro_usdt', 'bigint', (column) => column.notNull())
    .addColumn('credited_micros', 'bigint', (column) => column.notNull())
    .addColumn('is_late', 'integer', (column) => column.notNull())
    .addColumn('credited_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('crypto_deposit_transfers_key', ['way', 'transfer_key'])
    .execute();
  await db.schema
    .createIndex('crypto_deposit_transfers_order')
    .on('crypto_deposit_transfers')
    .columns(['order_id', 'credited_at'])
    .execute();
}
