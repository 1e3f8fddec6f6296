import { postAccountMail } from '../accounts/account-mail.ts';
import { listOperatorEmails } from '../db/account-alerts.ts';
import type { AccountMailInput } from '../mail/account-mail-templates.ts';
import type { AlertPassDeps } from './notify-low-balances.ts';

/** One alert per subject (a route, the search engine) at most this often, so a flapping route does not flood mail. */
export const operatorAlertIntervalMs = 60 * 60 * 1000;

type OperatorAlert = Extract<AccountMailInput, { kind: 'route-circuit-open' | 'search-failing' }>;

export type OperatorAlerts = {
  /** Mails every active operator, unless this subject was alerted within the interval; errors go to `onError`. */
  raise: (subject: string, alert: OperatorAlert) => void;
};

/** Operator alerts by mail, throttled per subject on this node. */
export function createOperatorAlerts(deps: AlertPassDeps & { onError: (error: unknown) => void }): OperatorAlerts {
  const lastSentAtMs = new Map<string, number>();
  return {
    raise: (subject, alert) => {
      const nowMs = deps.clock.nowMs();
      const last = lastSentAtMs.get(subject);
      if (last !== undefined && nowMs - last < operatorAlertIntervalMs) return;
      lastSentAtMs.set(subject, nowMs);
      listOperatorEmails(deps.db)
        .then((operators) => {
          for (const operator of operators)
            postAccountMail(deps, { to: operator.email, locale: operator.locale, mail: alert });
        })
        .catch(deps.onError);
    },
  };
}
