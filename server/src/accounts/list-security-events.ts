import type { SecurityEventList } from '../../../contract/audit.ts';
import { listAuditEvents } from '../db/audit-events.ts';
import type { Database } from '../db/database.ts';

const eventsShown = 50;

/** The account's own latest security events (sign-ins, keys, password), newest first, for its dashboard. */
export async function listSecurityEvents(deps: { db: Database }, userId: string): Promise<SecurityEventList> {
  const rows = await listAuditEvents(deps.db, {
    filter: { category: 'security', accountId: userId },
    limit: eventsShown,
  });
  return {
    data: rows.map((row) => ({
      id: row.id,
      occurred_at: new Date(row.occurred_at).toISOString(),
      action: row.action,
      client_address: row.client_address,
    })),
  };
}
