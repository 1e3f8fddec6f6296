import { postAccountMail, type AccountMailDeps } from '../accounts/account-mail.ts';
import { claimLowBalanceAlert, listLowBalanceCandidates, rearmLowBalanceAlerts } from '../db/account-alerts.ts';
import type { Database } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import { formatUsd } from '../lib/money.ts';

export type AlertPassDeps = Pick<AccountMailDeps, 'mailer' | 'publicBaseUrl'> & { db: Database; clock: Clock };

/**
 * One pass of the low-balance alert: every account below the threshold it set gets one mail, and is told again only
 * after its balance has been back at or above the threshold. Balances come from the database column the ledger keeps,
 * so the pass adds nothing to the request path; several nodes may run it, and each mail is claimed by one.
 */
export async function notifyLowBalances(deps: AlertPassDeps): Promise<number> {
  await rearmLowBalanceAlerts(deps.db);
  let sent = 0;
  for (const user of await listLowBalanceCandidates(deps.db, { limit: 500 })) {
    if (!(await claimLowBalanceAlert(deps.db, { userId: user.id, nowMs: deps.clock.nowMs() }))) continue;
    postAccountMail(deps, {
      to: user.email,
      locale: user.locale,
      mail: {
        kind: 'balance-low',
        balanceUsd: formatUsd(user.balance_micros),
        thresholdUsd: formatUsd(user.alert_low_balance_micros),
        topUpUrl: `${deps.publicBaseUrl}/dashboard`,
      },
    });
    sent += 1;
  }
  return sent;
}
