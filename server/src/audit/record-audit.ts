import type { AuditEventRow } from '../db/schema.ts';
import type { Database } from '../db/database.ts';
import { insertAuditEvent } from '../db/audit-events.ts';
import { findUserById } from '../db/users.ts';
import type { Clock } from '../lib/clock.ts';
import type { IdGenerator } from '../lib/ids.ts';

export type RecordAuditDeps = { db: Database; clock: Clock; ids: IdGenerator };

/**
 * Who acted: a signed-in user (an operator, or the account owner for security events), recorded with their e-mail at
 * the time, or the command line (`cli`), run by whoever holds the server's database.
 */
export type AuditActor = { userId: string } | 'cli';

/**
 * One entry of the audit log. `action` is `<area>.<verb>` (`user.balance_adjusted`, `model.price_set`); `target` names
 * what changed; `before` and `after` are its state around the change, as the operator API shows it (never a secret,
 * never prompt or completion text: pass views, not rows with credentials).
 */
export type AuditRecord = {
  category?: AuditEventRow['category'];
  action: string;
  actor: AuditActor;
  target: { kind: string; id: string | null };
  /** The account the record concerns, if any (its owner sees its `security` records). */
  accountId?: string | null;
  before?: unknown;
  after?: unknown;
  clientAddress?: string | null;
};

/**
 * Appends one record to the audit log (`audit_events`, append-only). The one call every operator action and account
 * security event makes: `await recordAudit(deps, { action, actor, target, before, after })` (docs/operator.md).
 */
export async function recordAudit(deps: RecordAuditDeps, record: AuditRecord): Promise<void> {
  await insertAuditEvent(deps.db, {
    id: deps.ids.newId('aud_'),
    occurred_at: deps.clock.nowMs(),
    category: record.category ?? 'operator',
    action: record.action,
    actor_user_id: record.actor === 'cli' ? null : record.actor.userId,
    actor_label: record.actor === 'cli' ? 'cli' : await findActorLabel(deps.db, record.actor.userId),
    target_kind: record.target.kind,
    target_id: record.target.id,
    account_id: record.accountId ?? null,
    before_json: toJsonText(record.before),
    after_json: toJsonText(record.after),
    client_address: record.clientAddress ?? null,
  });
}

async function findActorLabel(db: Database, userId: string): Promise<string> {
  return (await findUserById(db, userId))?.email ?? userId;
}

function toJsonText(state: unknown): string | null {
  return state === undefined || state === null ? null : JSON.stringify(state);
}

/** The security events an account's owner sees on the dashboard. */
export type SecurityAction =
  | 'account_registered'
  | 'signed_in'
  | 'password_changed'
  | 'api_key_created'
  | 'api_key_revoked'
  | 'totp_enabled'
  | 'totp_reset';

/** Records an event of an account's own security, done by its owner (or, for a reset, by an operator or the CLI). */
export async function recordSecurityEvent(
  deps: RecordAuditDeps,
  input: {
    accountId: string;
    action: SecurityAction;
    actor?: AuditActor;
    target?: { kind: string; id: string | null };
    clientAddress: string | null;
  },
): Promise<void> {
  await recordAudit(deps, {
    category: 'security',
    action: input.action,
    actor: input.actor ?? { userId: input.accountId },
    target: input.target ?? { kind: 'user', id: input.accountId },
    accountId: input.accountId,
    clientAddress: input.clientAddress,
  });
}
