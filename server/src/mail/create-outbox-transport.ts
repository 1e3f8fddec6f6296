import type { Database } from '../db/database.ts';
import { insertOutboxMail } from '../db/mail-outbox.ts';
import type { Clock } from '../lib/clock.ts';
import type { IdGenerator } from '../lib/ids.ts';
import type { MailTransport } from './mailer.ts';

/** Keeps every message in the database for the operator's outbox page: what runs while no SMTP server is set. */
export function createOutboxTransport(deps: { db: Database; clock: Clock; ids: IdGenerator }): MailTransport {
  return {
    delivery: 'outbox',
    send: async (message) => {
      await insertOutboxMail(deps.db, {
        id: deps.ids.newId('mail_'),
        to_address: message.to,
        kind: message.kind,
        subject: message.subject,
        text_body: message.text,
        html_body: message.html,
        created_at: deps.clock.nowMs(),
      });
    },
    close: async () => undefined,
  };
}
