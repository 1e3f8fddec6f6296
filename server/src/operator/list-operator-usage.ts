import type { OperatorUsagePage, OperatorUsageQuery } from '../../../contract/operator.ts';
import { parseUsageFilter } from '../accounts/parse-usage-filter.ts';
import type { Database } from '../db/database.ts';
import { listUsageAcrossAccounts } from '../db/usage-across-accounts.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { microsToUsd } from '../lib/money.ts';

const defaultLimit = 50;

/** Every account's calls, newest first, filtered by time, model and account, a page at a time. */
export async function listOperatorUsage(deps: { db: Database }, query: OperatorUsageQuery): Promise<OperatorUsagePage> {
  const { fromMs, toMs, modelId } = parseUsageFilter('', query);
  const limit = query.limit ?? defaultLimit;
  const rows = await listUsageAcrossAccounts(deps.db, {
    filter: { fromMs, toMs, modelId, userId: query.user_id },
    limit: limit + 1,
    after: query.cursor === undefined ? undefined : parseCursor(query.cursor),
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map((row) => ({
      request_id: row.request_id,
      created_at: new Date(row.created_at).toISOString(),
      user_id: row.user_id,
      user_email: row.user_email,
      model: row.model_id,
      endpoint: row.endpoint,
      key_id: row.api_key_id,
      provider: row.provider,
      route_id: row.route_id,
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
    })),
    next_cursor: rows.length > limit && last ? `${last.created_at}.${last.request_id}` : null,
  };
}

function parseCursor(cursor: string): { createdAt: number; requestId: string } {
  const match = /^(\d{1,16})\.(.+)$/.exec(cursor);
  if (!match) throw new InvalidRequestError('`cursor` is not one this API returned.', { param: 'cursor' });
  return { createdAt: Number(match[1]), requestId: match[2] ?? '' };
}
