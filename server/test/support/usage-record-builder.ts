import type { Database } from '../../src/db/database.ts';
import type { UsageRecordRow } from '../../src/db/schema.ts';

let sequence = 0;

/** A usage row with plausible defaults; tests override what they check. */
export function buildUsageRecord(overrides: Partial<UsageRecordRow> & Pick<UsageRecordRow, 'user_id'>): UsageRecordRow {
  sequence += 1;
  return {
    request_id: `req_test${String(sequence).padStart(8, '0')}`,
    api_key_id: null,
    model_id: 'gpt-4o',
    endpoint: 'chat.completions',
    route_id: 'rte_sandbox',
    provider: 'openai',
    status: 'completed',
    error_code: null,
    input_tokens: 100,
    cached_tokens: 0,
    output_tokens: 20,
    reasoning_tokens: 0,
    image_count: 0,
    cost_micros: 360,
    upstream_cost_micros: null,
    time_to_first_token_ms: 120,
    latency_ms: 800,
    created_at: Date.UTC(2025, 0, 15, 12),
    ...overrides,
  };
}

/** Writes usage rows straight into the table (no ledger entries): for tests of the usage read endpoints. */
export async function insertUsageRecords(db: Database, records: readonly UsageRecordRow[]): Promise<void> {
  if (records.length > 0)
    await db
      .insertInto('usage_records')
      .values([...records])
      .execute();
}
