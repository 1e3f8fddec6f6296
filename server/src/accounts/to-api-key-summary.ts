import type { ApiKey } from '../../../contract/api-keys.ts';
import type { ApiKeyRow } from '../db/schema.ts';
import { microsToUsd } from '../lib/money.ts';

/** A stored key as the dashboard shows it: never the key or its hash. */
export function toApiKeySummary(row: Omit<ApiKeyRow, 'key_hash' | 'revoked_at'>): ApiKey {
  const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    last_four: row.last_four,
    created_at: new Date(row.created_at).toISOString(),
    last_used_at: isoOrNull(row.last_used_at),
    expires_at: isoOrNull(row.expires_at),
    spend_cap_usd: row.spend_cap_micros === null ? null : microsToUsd(row.spend_cap_micros),
    spent_usd: microsToUsd(row.spent_micros),
    allowed_models: row.allowed_models === null ? null : row.allowed_models.split('\n'),
    requests_per_minute: row.requests_per_minute,
    tokens_per_minute: row.tokens_per_minute,
    daily_budget_usd: row.daily_budget_micros === null ? null : microsToUsd(row.daily_budget_micros),
    monthly_budget_usd: row.monthly_budget_micros === null ? null : microsToUsd(row.monthly_budget_micros),
  };
}
