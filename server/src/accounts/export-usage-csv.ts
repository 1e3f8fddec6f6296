import type { UsageFilterQuery } from '../../../contract/usage.ts';
import type { Database } from '../db/database.ts';
import { listUsageRecords, type UsageRecordWithKeyName } from '../db/usage-records.ts';
import { formatCsv, protectCsvText, type CsvCell } from '../lib/csv.ts';
import { formatUsd } from '../lib/money.ts';
import { parseUsageFilter } from './parse-usage-filter.ts';

/** Rows per file; a longer range is cut here and says so (narrow `from`/`to` to get the rest). */
export const maximumCsvRows = 100_000;
const batchSize = 1_000;

const header = [
  'time',
  'request_id',
  'model',
  'endpoint',
  'key_id',
  'key_name',
  'provider',
  'status',
  'error_code',
  'input_tokens',
  'cached_tokens',
  'output_tokens',
  'reasoning_tokens',
  'image_count',
  'time_to_first_token_ms',
  'latency_ms',
  'cost_usd',
];

/** The account's calls as CSV (header row, newest first), costs as exact six-decimal USD. */
export async function exportUsageCsv(
  deps: { db: Database },
  input: { userId: string; query: UsageFilterQuery },
): Promise<{ csv: string; isTruncated: boolean }> {
  const filter = parseUsageFilter(input.userId, input.query);
  const records: CsvCell[][] = [header];
  let after: { createdAt: number; requestId: string } | undefined;
  for (;;) {
    const remaining = maximumCsvRows - (records.length - 1);
    const limit = Math.min(batchSize, remaining + 1);
    const rows = await listUsageRecords(deps.db, { filter, limit, after });
    for (const row of rows.slice(0, remaining)) records.push(toCsvRecord(row));
    if (rows.length > remaining) return { csv: formatCsv(records), isTruncated: true };
    const last = rows.at(-1);
    if (rows.length < limit || !last) return { csv: formatCsv(records), isTruncated: false };
    after = { createdAt: last.created_at, requestId: last.request_id };
  }
}

function toCsvRecord(row: UsageRecordWithKeyName): CsvCell[] {
  return [
    new Date(row.created_at).toISOString(),
    row.request_id,
    protectCsvText(row.model_id),
    row.endpoint,
    row.api_key_id,
    protectCsvText(row.api_key_name),
    protectCsvText(row.provider),
    row.status,
    row.error_code,
    row.input_tokens,
    row.cached_tokens,
    row.output_tokens,
    row.reasoning_tokens,
    row.image_count,
    row.time_to_first_token_ms,
    row.latency_ms,
    formatUsd(row.cost_micros),
  ];
}
