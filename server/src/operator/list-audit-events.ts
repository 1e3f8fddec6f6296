import type { AuditEvent, AuditPage, AuditQuery } from '../../../contract/audit.ts';
import { listAuditEvents as listAuditRows } from '../db/audit-events.ts';
import type { Database } from '../db/database.ts';
import type { AuditEventRow } from '../db/schema.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { parseUsageFilter } from '../accounts/parse-usage-filter.ts';

const defaultLimit = 50;

/** The operator's search of the audit log, newest first, a page at a time. */
export async function listAuditEvents(deps: { db: Database }, query: AuditQuery): Promise<AuditPage> {
  const { fromMs, toMs } = parseUsageFilter('', query);
  const limit = query.limit ?? defaultLimit;
  const rows = await listAuditRows(deps.db, {
    filter: {
      ...(query.category === undefined ? {} : { category: query.category }),
      ...(query.action === undefined ? {} : { action: query.action }),
      ...(query.actor === undefined ? {} : { actorText: query.actor }),
      ...(query.target_kind === undefined ? {} : { targetKind: query.target_kind }),
      ...(query.target_id === undefined ? {} : { targetId: query.target_id }),
      ...(query.account_id === undefined ? {} : { accountId: query.account_id }),
      ...(fromMs === undefined ? {} : { fromMs }),
      ...(toMs === undefined ? {} : { toMs }),
      ...(query.cursor === undefined ? {} : { before: parseCursor(query.cursor) }),
    },
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(toAuditEvent),
    next_cursor: rows.length > limit && last ? `${last.occurred_at}.${last.id}` : null,
  };
}

export function toAuditEvent(row: AuditEventRow): AuditEvent {
  return {
    id: row.id,
    occurred_at: new Date(row.occurred_at).toISOString(),
    category: row.category,
    action: row.action,
    actor: { user_id: row.actor_user_id, label: row.actor_label },
    target: { kind: row.target_kind, id: row.target_id },
    account_id: row.account_id,
    before: row.before_json,
    after: row.after_json,
    client_address: row.client_address,
  };
}

function parseCursor(cursor: string): { occurredAt: number; id: string } {
  const match = /^(\d{1,16})\.(aud_\w+)$/.exec(cursor);
  if (!match) throw new InvalidRequestError('`cursor` is not one this API returned.', { param: 'cursor' });
  return { occurredAt: Number(match[1]), id: match[2] ?? '' };
}
