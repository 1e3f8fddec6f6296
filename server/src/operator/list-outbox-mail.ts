import type { Outbox } from '../../../contract/account-email.ts';
import type { Database } from '../db/database.ts';
import { listOutboxMail } from '../db/mail-outbox.ts';

/** The operator's outbox page: mail kept while no SMTP server is configured, and whether mail is kept or sent now. */
export async function listOutbox(
  deps: { db: Database; mailDelivery: Outbox['delivery'] },
  query: { to?: string | undefined; limit: number },
): Promise<Outbox> {
  const rows = await listOutboxMail(deps.db, {
    limit: query.limit,
    toAddress: query.to === undefined ? undefined : query.to.trim().toLowerCase(),
  });
  return {
    delivery: deps.mailDelivery,
    data: rows.map((row) => ({
      id: row.id,
      to: row.to_address,
      kind: row.kind,
      subject: row.subject,
      text: row.text_body,
      html: row.html_body,
      created_at: new Date(row.created_at).toISOString(),
    })),
  };
}
