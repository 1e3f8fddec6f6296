import type { Database } from './database.ts';
import type { MailOutboxTable } from './schema.ts';

export type OutboxMailRow = MailOutboxTable;

export async function insertOutboxMail(db: Database, mail: OutboxMailRow): Promise<void> {
  await db.insertInto('mail_outbox').values(mail).execute();
}

/** The newest mail first, optionally only mail to one address. */
export async function listOutboxMail(
  db: Database,
  input: { limit: number; toAddress?: string | undefined },
): Promise<OutboxMailRow[]> {
  let query = db.selectFrom('mail_outbox').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc');
  if (input.toAddress !== undefined) query = query.where('to_address', '=', input.toAddress);
  return query.limit(input.limit).execute();
}
