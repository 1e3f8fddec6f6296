import { useState } from 'react';
import { RequireSignIn } from '../../features/auth/require-sign-in.tsx';
import { usePageTitle } from '../../router/use-page-title.ts';
import { useOperatorMessages, type OperatorMessages } from './operator-messages.ts';
import { PaymentsPanel } from './payments-panel.tsx';
import { ModelsPanel } from './models-panel.tsx';
import { PlansPanel } from './plans-panel.tsx';
import { PricesPanel } from './prices-panel.tsx';
import { RevenuePanel } from './revenue-panel.tsx';
import { RoutesPanel } from './routes-panel.tsx';
import { UsersPanel } from './users-panel.tsx';
import { AuditPanel } from './audit-panel.tsx';
import { OutboxPanel } from './outbox-panel.tsx';
import { TotpGate } from './totp-gate.tsx';
import { WebSearchPanel } from './web-search-panel.tsx';
import './operator.css';

const panels = {
  users: UsersPanel,
  prices: PricesPanel,
  plans: PlansPanel,
  revenue: RevenuePanel,
  routes: RoutesPanel,
  payments: PaymentsPanel,
  audit: AuditPanel,
  models: ModelsPanel,
  outbox: OutboxPanel,
  search: WebSearchPanel,
} as const satisfies Record<keyof OperatorMessages['tabs'], () => unknown>;

type PanelId = keyof typeof panels;

/** `/operator`: the operator's console (admin accounts only; the API refuses everyone else anyway). */
export function OperatorConsolePage() {
  const text = useOperatorMessages();
  usePageTitle(text.title);
  return (
    <RequireSignIn>
      {(me) =>
        me.role === 'admin' ? (
          <TotpGate>
            <Console />
          </TotpGate>
        ) : (
          <div className="page container">
            <p className="notice notice--error" role="alert">
              {text.notOperator}
            </p>
          </div>
        )
      }
    </RequireSignIn>
  );
}

function Console() {
  const text = useOperatorMessages();
  const [panel, setPanel] = useState<PanelId>('users');
  const Panel = panels[panel];
  return (
    <div className="page container operator-console">
      <h1>{text.title}</h1>
      <div className="operator-tabs" role="tablist">
        {(Object.keys(panels) as PanelId[]).map((id) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={panel === id}
            className={`operator-tabs__tab${panel === id ? ' operator-tabs__tab--current' : ''}`}
            onClick={() => setPanel(id)}
          >
            {text.tabs[id]}
          </button>
        ))}
      </div>
      <div role="tabpanel">
        <Panel />
      </div>
    </div>
  );
}
