import type { DailyUsageList, UsageFilterQuery } from '../../../contract/usage.ts';
import type { Database } from '../db/database.ts';
import { summarizeDailyUsage } from '../db/usage-records.ts';
import { microsToUsd } from '../lib/money.ts';
import { formatDayNumber, parseUsageFilter } from './parse-usage-filter.ts';

/** The account's totals per UTC day and model: requests, tokens and cost. */
export async function listDailyUsage(
  deps: { db: Database },
  input: { userId: string; query: UsageFilterQuery },
): Promise<DailyUsageList> {
  const days = await summarizeDailyUsage(deps.db, parseUsageFilter(input.userId, input.query));
  return {
    data: days.map((day) => ({
      date: formatDayNumber(day.dayNumber),
      model: day.modelId,
      requests: day.requests,
      input_tokens: day.inputTokens,
      cached_tokens: day.cachedTokens,
      output_tokens: day.outputTokens,
      reasoning_tokens: day.reasoningTokens,
      image_count: day.imageCount,
      cost_usd: microsToUsd(day.costMicros),
    })),
  };
}
