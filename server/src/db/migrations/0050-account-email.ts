import { sql, type Kysely } from 'kysely';

/**
 * E-mail for accounts (docs/accounts.md): when an address was verified, the language of its mail, single-use links
 * (only the SHA-256 of each token is stored) and the hashed sign-up address and network for the sign-up throttles, and the outbox that keeps mail when no SMTP server is configured.
 * Accounts that existed before count as verified: they signed up when no mail could be sent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_verified_at', 'bigint').execute();
  await db.schema
    .alterTable('users')
    .addColumn('locale', 'text', (column) => column.notNull().defaultTo('en'))
    .execute();
  await sql`update users set email_verified_at = created_at`.execute(db);
  // Sign-up throttles count accounts per client address and per network (/24, /64), by hash only.
  await db.schema.alterTable('users').addColumn('signup_address_hash', 'text').execute();
  await db.schema.alterTable('users').addColumn('signup_network_hash', 'text').execute();
  await db.schema.createIndex('users_signup_address').on('users').column('signup_address_hash').execute();
  await db.schema.createIndex('users_signup_network').on('users').column('signup_network_hash').execute();

  await db.schema
    .createTable('account_tokens')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id'))
    .addColumn('purpose', 'text', (column) => column.notNull())
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('expires_at', 'bigint', (column) => column.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('account_tokens_user').on('account_tokens').columns(['user_id', 'purpose']).execute();

  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('to_address', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('subject', 'text', (column) => column.notNull())
    .addColumn('text_body', 'text', (column) => column.notNull())
    .addColumn('html_body', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('mail_outbox_created').on('mail_outbox').column('created_at').execute();
}
