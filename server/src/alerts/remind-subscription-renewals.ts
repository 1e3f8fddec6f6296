import { postAccountMail } from '../accounts/account-mail.ts';
import { claimRenewalReminder, listRenewalReminderCandidates } from '../db/account-alerts.ts';
import { formatUsd } from '../lib/money.ts';
import type { AlertPassDeps } from './notify-low-balances.ts';

/** How long before an automatic renewal its reminder is mailed. */
export const renewalReminderLeadMs = 3 * 24 * 60 * 60 * 1000;

/** One pass of the renewal reminder: each auto-renewing period gets one mail, three days before it renews. */
export async function remindSubscriptionRenewals(deps: AlertPassDeps): Promise<number> {
  const nowMs = deps.clock.nowMs();
  const due = await listRenewalReminderCandidates(deps.db, {
    nowMs,
    beforeMs: nowMs + renewalReminderLeadMs,
    limit: 500,
  });
  let sent = 0;
  for (const subscription of due) {
    const isClaimed = await claimRenewalReminder(deps.db, {
      userId: subscription.user_id,
      expiresAt: subscription.expires_at,
      nowMs,
    });
    if (!isClaimed) continue;
    postAccountMail(deps, {
      to: subscription.email,
      locale: subscription.locale,
      mail: {
        kind: 'subscription-renewal',
        planName: subscription.plan_name,
        renewsAt: new Date(subscription.expires_at).toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
        priceUsd: formatUsd(subscription.price_micros),
        dashboardUrl: `${deps.publicBaseUrl}/dashboard`,
      },
    });
    sent += 1;
  }
  return sent;
}
