import type { Kysely } from 'kysely';

/**
 * Account alerts (docs/accounts.md): the balance below which a user wants a mail and when it was last sent (cleared
 * once the balance is back above), and one row per subscription period whose renewal reminder went out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('alert_low_balance_micros', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('low_balance_alerted_at', 'bigint').execute();
  await db.schema
    .createTable('subscription_renewal_reminders')
    .addColumn('user_id', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'bigint', (column) => column.notNull())
    .addColumn('sent_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('subscription_renewal_reminders_pk', ['user_id', 'expires_at'])
    .execute();
}
