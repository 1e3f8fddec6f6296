import type { AccountExport } from '../../../contract/account-email.ts';
import { listApiKeysForUser } from '../db/api-keys.ts';
import type { Database } from '../db/database.ts';
import { listUsageRecords } from '../db/usage-records.ts';
import { findUserById } from '../db/users.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import type { Clock } from '../lib/clock.ts';
import { microsToUsd } from '../lib/money.ts';
import { toUsageRecord } from './list-usage.ts';
import { parseUsageFilter } from './parse-usage-filter.ts';
import { toApiKeySummary } from './to-api-key-summary.ts';

/** The most usage records one export holds (the newest); the CSV export takes date ranges for the rest. */
export const maximumExportedUsageRecords = 100_000;

/** Everything kept about an account, for the user to take away: no key secrets (only hashes exist), no text. */
export async function exportAccountData(deps: { db: Database; clock: Clock }, userId: string): Promise<AccountExport> {
  const user = await findUserById(deps.db, userId);
  if (!user) throw new NotFoundError('This account no longer exists.');
  const keys = await listApiKeysForUser(deps.db, userId);
  const usage = await listUsageRecords(deps.db, {
    filter: parseUsageFilter(userId, {}),
    limit: maximumExportedUsageRecords + 1,
  });
  const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
  return {
    exported_at: new Date(deps.clock.nowMs()).toISOString(),
    account: {
      id: user.id,
      email: user.email,
      role: user.role,
      status: user.status,
      locale: user.locale,
      created_at: new Date(user.created_at).toISOString(),
      email_verified_at: isoOrNull(user.email_verified_at),
      balance_usd: microsToUsd(user.balance_micros),
      low_balance_alert_usd:
        user.alert_low_balance_micros === null ? null : microsToUsd(Number(user.alert_low_balance_micros)),
    },
    api_keys: keys.map((key) => ({ ...toApiKeySummary(key), revoked_at: isoOrNull(key.revoked_at) })),
    usage: usage.slice(0, maximumExportedUsageRecords).map(toUsageRecord),
    is_usage_truncated: usage.length > maximumExportedUsageRecords,
  };
}
