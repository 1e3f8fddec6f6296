import '../features/dashboard/dashboard.css';
import { useState } from 'react';
import { RequireSignIn } from '../features/auth/require-sign-in.tsx';
import { ApiKeysPanel } from '../features/dashboard/api-keys-panel.tsx';
import { BalancePanel } from '../features/dashboard/balance-panel.tsx';
import { SubscriptionPanel } from '../features/dashboard/subscription-panel.tsx';
import { TopUpPanel } from '../features/top-up/top-up-panel.tsx';
import { UsagePanel } from '../features/dashboard/usage-panel.tsx';
import { SecurityEventsPanel } from '../features/dashboard/security-events-panel.tsx';
import { AlertSettingsPanel } from '../features/dashboard/alert-settings-panel.tsx';
import { AccountDataPanel } from '../features/dashboard/account-data-panel.tsx';
import { useI18n } from '../i18n/i18n-provider.tsx';
import { formatUsd } from '../lib/format-usd.ts';
import { usePageTitle } from '../router/use-page-title.ts';

/**
 * `/dashboard` (signed in): balance and holds, top-up (the form and the payment history), subscription, API keys,
 * usage, security events, mail alerts, data export and account deletion. A new account is greeted with its welcome
 * balance.
 */
export function DashboardPage() {
  const { messages } = useI18n();
  const text = messages.dashboard;
  usePageTitle(text.title);
  const [changeCount, setChangeCount] = useState(0);
  return (
    <RequireSignIn>
      {(me, isNewAccount) => (
        <div className="page container dashboard">
          <header className="page__header">
            <h1>{text.title}</h1>
            <p className="page__lead">{text.signedInAs(me.email)}</p>
            {isNewAccount && me.balance_usd > 0 && (
              <p className="notice notice--info" role="status" data-welcome>
                {text.welcome(formatUsd(me.balance_usd))}
              </p>
            )}
          </header>
          <div className="dashboard__grid">
            <BalancePanel refreshKey={String(changeCount)} />
            <SubscriptionPanel onChanged={() => setChangeCount((count) => count + 1)} />
            <TopUpPanel refreshKey={String(changeCount)} />
            <ApiKeysPanel onChanged={() => setChangeCount((count) => count + 1)} />
            <UsagePanel refreshKey={String(changeCount)} />
            <SecurityEventsPanel refreshKey={String(changeCount)} />
            <AlertSettingsPanel />
            <AccountDataPanel balanceUsd={me.balance_usd} />
          </div>
        </div>
      )}
    </RequireSignIn>
  );
}
