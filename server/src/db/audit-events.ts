import { sql } from 'kysely';
import type { Database } from './database.ts';
import type { AuditEventRow } from './schema.ts';

/** What an audit search may narrow by; every field optional. `before` pages back from a record (time, id). */
export type AuditEventFilter = {
  category?: AuditEventRow['category'];
  action?: string;
  actorText?: string;
  targetKind?: string;
  targetId?: string;
  accountId?: string;
  fromMs?: number;
  toMs?: number;
  before?: { occurredAt: number; id: string };
};

/** Appends one record. There is no update or delete here, and the table's triggers refuse both. */
export async function insertAuditEvent(db: Database, event: AuditEventRow): Promise<void> {
  await db.insertInto('audit_events').values(event).execute();
}

/** Records matching the filter, newest first, at most `limit`. */
export async function listAuditEvents(
  db: Database,
  input: { filter: AuditEventFilter; limit: number },
): Promise<AuditEventRow[]> {
  const { filter } = input;
  let query = db.selectFrom('audit_events').selectAll();
  if (filter.category !== undefined) query = query.where('category', '=', filter.category);
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  if (filter.targetKind !== undefined) query = query.where('target_kind', '=', filter.targetKind);
  if (filter.targetId !== undefined) query = query.where('target_id', '=', filter.targetId);
  if (filter.accountId !== undefined) query = query.where('account_id', '=', filter.accountId);
  if (filter.fromMs !== undefined) query = query.where('occurred_at', '>=', filter.fromMs);
  if (filter.toMs !== undefined) query = query.where('occurred_at', '<', filter.toMs);
  if (filter.actorText !== undefined) {
    const actorText = filter.actorText;
    const pattern = `%${escapeLike(actorText.toLowerCase())}%`;
    query = query.where((eb) =>
      eb.or([eb('actor_user_id', '=', actorText), sql<boolean>`lower(actor_label) like ${pattern} escape '\\'`]),
    );
  }
  const before = filter.before;
  if (before !== undefined) {
    query = query.where((eb) =>
      eb.or([
        eb('occurred_at', '<', before.occurredAt),
        eb.and([eb('occurred_at', '=', before.occurredAt), eb('id', '<', before.id)]),
      ]),
    );
  }
  return query.orderBy('occurred_at', 'desc').orderBy('id', 'desc').limit(input.limit).execute();
}

/** Every record from `fromMs` on, oldest first, a page at a time (for exports that need not fit in memory). */
export async function* readAuditEventsInOrder(
  db: Database,
  input: { fromMs: number; toMs: number; pageSize: number },
): AsyncGenerator<AuditEventRow> {
  let after: { occurredAt: number; id: string } | undefined;
  for (;;) {
    let query = db
      .selectFrom('audit_events')
      .selectAll()
      .where('occurred_at', '>=', input.fromMs)
      .where('occurred_at', '<', input.toMs);
    const cursor = after;
    if (cursor !== undefined) {
      query = query.where((eb) =>
        eb.or([
          eb('occurred_at', '>', cursor.occurredAt),
          eb.and([eb('occurred_at', '=', cursor.occurredAt), eb('id', '>', cursor.id)]),
        ]),
      );
    }
    const page = await query.orderBy('occurred_at').orderBy('id').limit(input.pageSize).execute();
    yield* page;
    const last = page.at(-1);
    if (last === undefined || page.length < input.pageSize) return;
    after = { occurredAt: last.occurred_at, id: last.id };
  }
}

function escapeLike(text: string): string {
  return text.replaceAll(/[\\%_]/g, (character) => `\\${character}`);
}
