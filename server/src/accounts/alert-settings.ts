import type { AlertSettings } from '../../../contract/account-email.ts';
import { updateLowBalanceThreshold } from '../db/account-alerts.ts';
import type { Database } from '../db/database.ts';
import { findUserById } from '../db/users.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import { microsToUsd, parseUsdToMicros } from '../lib/money.ts';

export async function getAlertSettings(deps: { db: Database }, userId: string): Promise<AlertSettings> {
  const user = await findUserById(deps.db, userId);
  if (!user) throw new NotFoundError('This account no longer exists.');
  const threshold = user.alert_low_balance_micros;
  return { low_balance_usd: threshold === null ? null : microsToUsd(Number(threshold)) };
}

/** Sets the low-balance threshold (exact micro-USD from the number's decimal text); the next pass may mail at once. */
export async function setAlertSettings(
  deps: { db: Database },
  input: { userId: string; settings: AlertSettings },
): Promise<AlertSettings> {
  const usd = input.settings.low_balance_usd;
  const thresholdMicros = usd === null ? null : parseUsdToMicros(String(usd));
  if (thresholdMicros === undefined) {
    throw new InvalidRequestError('The threshold must be a USD amount with at most 6 decimals.', {
      param: 'low_balance_usd',
    });
  }
  await updateLowBalanceThreshold(deps.db, { userId: input.userId, thresholdMicros });
  return getAlertSettings(deps, input.userId);
}
