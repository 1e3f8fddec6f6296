import type { PriceChange } from '../../../contract/operator.ts';
import type { PriceChangesTable } from '../db/schema.ts';
import { microsToUsd } from '../lib/money.ts';

export function toPriceChangeView(row: PriceChangesTable): PriceChange {
  return {
    model_id: row.model_id,
    effective_at: new Date(row.effective_at).toISOString(),
    input_usd_per_million: microsToUsd(row.input_rate_micros),
    output_usd_per_million: microsToUsd(row.output_rate_micros),
    cached_input_usd_per_million:
      row.cached_input_rate_micros === null ? null : microsToUsd(row.cached_input_rate_micros),
    usd_per_request: row.per_request_micros === null ? null : microsToUsd(row.per_request_micros),
    reason: row.reason,
  };
}
