import { recordAudit, type AuditRecord } from '../audit/record-audit.ts';
import { readAuditEventsInOrder } from '../db/audit-events.ts';
import { findRoute } from '../db/routes.ts';
import type { AuditEventRow } from '../db/schema.ts';
import { parseOptions, UsageError, type CliContext } from './cli-context.ts';

const csvColumns = [
  'id',
  'occurred_at',
  'category',
  'action',
  'actor_user_id',
  'actor_label',
  'target_kind',
  'target_id',
  'account_id',
  'before_json',
  'after_json',
  'client_address',
] as const satisfies readonly (keyof AuditEventRow)[];

/**
 * `audit export [--format jsonl|csv] [--from ISO] [--to ISO]`: the audit log, oldest first, one record a line on
 * standard output (JSON lines by default; CSV with a header row, RFC 4180 quoting). Read a page at a time, so a long
 * log streams rather than filling memory.
 */
export async function runAuditCommand(context: CliContext, action: string | undefined, args: readonly string[]) {
  if (action !== 'export') throw new UsageError(`unknown audit command "${action ?? ''}" (expected: export)`);
  const options = parseOptions(args, { format: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } });
  const format = options.format ?? 'jsonl';
  if (format !== 'jsonl' && format !== 'csv') throw new UsageError(`--format must be jsonl or csv, got "${format}"`);
  const fromMs = parseTime('from', options.from) ?? 0;
  const toMs = parseTime('to', options.to) ?? Number.MAX_SAFE_INTEGER;
  if (format === 'csv') context.print(csvColumns.join(','));
  for await (const row of readAuditEventsInOrder(context.db, { fromMs, toMs, pageSize: 500 })) {
    context.print(format === 'csv' ? toCsvLine(row) : JSON.stringify(toExportRecord(row)));
  }
}

/** A change made from the command line, recorded like the API's (actor `cli`). */
export async function recordCliAction(
  context: CliContext,
  record: Omit<AuditRecord, 'actor' | 'category' | 'clientAddress'>,
): Promise<void> {
  await recordAudit(context, { ...record, actor: 'cli' });
}

/** A route as the audit log keeps it: every column but the sealed credential, and whether there is one. */
export async function findAuditedRoute(context: CliContext, routeId: string): Promise<object | undefined> {
  const row = await findRoute(context.db, routeId);
  if (!row) return undefined;
  const { credential_ciphertext: credential, ...rest } = row;
  return { ...rest, has_credential: credential !== null };
}

function toExportRecord(row: AuditEventRow) {
  return { ...row, occurred_at: new Date(row.occurred_at).toISOString() };
}

function toCsvLine(row: AuditEventRow): string {
  const record = toExportRecord(row);
  return csvColumns
    .map((column) => {
      const value = record[column];
      const text = value === null ? '' : String(value);
      return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
    })
    .join(',');
}

function parseTime(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(ms))
    throw new UsageError(`--${name} must be a date (2025-01-31) or an ISO 8601 time, got "${text}"`);
  return ms;
}
