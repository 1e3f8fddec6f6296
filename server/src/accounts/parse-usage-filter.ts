import type { UsageFilterQuery } from '../../../contract/usage.ts';
import type { UsageFilter } from '../db/usage-records.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';

const msPerDay = 86_400_000;
const dateOnlyPattern = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Query filters → a half-open time range `[from, to)` in Unix ms. A bare date is a UTC day: `from=2025-01-01`
 * starts at its midnight, `to=2025-01-31` ends at the midnight after it (so the day is included).
 */
export function parseUsageFilter(userId: string, query: UsageFilterQuery): UsageFilter {
  const fromMs = query.from === undefined ? undefined : parseTime(query.from, { param: 'from', isEnd: false });
  const toMs = query.to === undefined ? undefined : parseTime(query.to, { param: 'to', isEnd: true });
  if (fromMs !== undefined && toMs !== undefined && fromMs >= toMs) {
    throw new InvalidRequestError('`to` must be later than `from`.', { param: 'to' });
  }
  return { userId, fromMs, toMs, modelId: query.model, apiKeyId: query.key_id };
}

function parseTime(text: string, options: { param: string; isEnd: boolean }): number {
  const isDateOnly = dateOnlyPattern.test(text);
  const ms = Date.parse(isDateOnly ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(ms)) {
    throw new InvalidRequestError(`\`${options.param}\` must be a date (2025-01-31) or an ISO 8601 time.`, {
      param: options.param,
    });
  }
  return isDateOnly && options.isEnd ? ms + msPerDay : ms;
}

/** The UTC date (`YYYY-MM-DD`) of a day number (days since 1970-01-01). */
export function formatDayNumber(dayNumber: number): string {
  return new Date(dayNumber * msPerDay).toISOString().slice(0, 10);
}
