import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * The audit log: one row per operator action (balance adjustments, prices, plans, routes, blocks, terms, refunds,
 * models) and per security event of an account (sign-ins, keys created or revoked, password changes). Append-only:
 * a trigger refuses any UPDATE or DELETE on both databases, so a record cannot be rewritten through the gateway's own
 * connection. No foreign keys: a record outlives the account or route it names.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('occurred_at', 'bigint', (column) => column.notNull())
    .addColumn('category', 'text', (column) => column.notNull())
    .addColumn('action', 'text', (column) => column.notNull())
    .addColumn('actor_user_id', 'text')
    .addColumn('actor_label', 'text', (column) => column.notNull())
    .addColumn('target_kind', 'text', (column) => column.notNull())
    .addColumn('target_id', 'text')
    .addColumn('account_id', 'text')
    .addColumn('before_json', 'text')
    .addColumn('after_json', 'text')
    .addColumn('client_address', 'text')
    .execute();
  await db.schema.createIndex('audit_events_by_time').on('audit_events').columns(['occurred_at', 'id']).execute();
  await db.schema
    .createIndex('audit_events_by_account')
    .on('audit_events')
    .columns(['account_id', 'category', 'occurred_at'])
    .execute();
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    for (const change of ['update', 'delete']) {
      await sql
        .raw(
          `create trigger audit_events_no_${change} before ${change} on audit_events begin select raise(abort, 'audit_events is append-only'); end`,
        )
        .execute(db);
    }
    return;
  }
  await sql`create function audit_events_append_only() returns trigger language plpgsql as $$ begin raise exception 'audit_events is append-only'; end $$`.execute(
    db,
  );
  await sql`create trigger audit_events_no_change before update or delete on audit_events for each row execute function audit_events_append_only()`.execute(
    db,
  );
}
