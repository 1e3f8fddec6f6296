import type { UsagePage, UsageQuery, UsageRecord } from '../../../contract/usage.ts';
import type { Database } from '../db/database.ts';
import { listUsageRecords, type UsageRecordWithKeyName } from '../db/usage-records.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { microsToUsd } from '../lib/money.ts';
import { parseUsageFilter } from './parse-usage-filter.ts';

const defaultPageSize = 50;

/** One page of the account's calls, newest first; `next_cursor` continues where this page ends. */
export async function listUsage(
  deps: { db: Database },
  input: { userId: string; query: UsageQuery },
): Promise<UsagePage> {
  const limit = input.query.limit ?? defaultPageSize;
  const rows = await listUsageRecords(deps.db, {
    filter: parseUsageFilter(input.userId, input.query),
    limit: limit + 1,
    after: input.query.cursor === undefined ? undefined : decodeCursor(input.query.cursor),
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(toUsageRecord),
    next_cursor: rows.length > limit && last ? encodeCursor(last) : null,
  };
}

export function toUsageRecord(row: UsageRecordWithKeyName): UsageRecord {
  return {
    request_id: row.request_id,
    created_at: new Date(row.created_at).toISOString(),
    model: row.model_id,
    endpoint: row.endpoint,
    key_id: row.api_key_id,
    key_name: row.api_key_name,
    provider: row.provider,
    status: row.status,
    error_code: row.error_code,
    input_tokens: row.input_tokens,
    cached_tokens: row.cached_tokens,
    output_tokens: row.output_tokens,
    reasoning_tokens: row.reasoning_tokens,
    image_count: row.image_count,
    time_to_first_token_ms: row.time_to_first_token_ms,
    latency_ms: row.latency_ms,
    cost_usd: microsToUsd(row.cost_micros),
  };
}

function encodeCursor(row: UsageRecordWithKeyName): string {
  return Buffer.from(`${row.created_at}.${row.request_id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: number; requestId: string } {
  const match = /^(\d{1,16})\.(.+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match?.[1] || !match[2]) {
    throw new InvalidRequestError('`cursor` is not one this API gave out; pass `next_cursor` as it came.', {
      param: 'cursor',
    });
  }
  return { createdAt: Number(match[1]), requestId: match[2] };
}
