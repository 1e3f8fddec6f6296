import './top-up.css';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { useLoad } from '../../lib/use-load.ts';
import { listTopUpMethods } from './top-up-api.ts';
import { TopUpForm } from './top-up-form.tsx';
import { TopUpHistory } from './top-up-history.tsx';
import { enabledTopUpMethods } from './top-up-methods.ts';
import { UsdtDeposit } from './usdt-deposit.tsx';

/**
 * The dashboard's top-up panel: the form (offering the methods the operator enabled) that sends the user to the
 * provider's page or, for USDT, shows the deposit address here; and the payment history.
 */
export function TopUpPanel(props: { refreshKey: string }) {
  const { messages } = useI18n();
  const text = messages.topUp;
  const { state } = useLoad((signal) => listTopUpMethods({ signal }), 'methods');
  const [usdtOrderId, setUsdtOrderId] = useState<string>();
  const methods = state.status === 'ready' ? enabledTopUpMethods(state.value.data) : [];
  return (
    <section
      className="card dashboard__panel dashboard__panel--wide"
      aria-labelledby="top-up-title"
      data-panel="top-up"
    >
      <h2 id="top-up-title">{text.title}</h2>
      <p>{text.lead}</p>
      {state.status === 'loading' && <p className="status">{messages.common.loading}</p>}
      {state.status === 'error' && <p className="notice notice--error">{state.message}</p>}
      {state.status === 'ready' && methods.length === 0 && <p className="status">{text.noMethods}</p>}
      {methods.length > 0 && <TopUpForm methods={methods} onCryptoOrder={setUsdtOrderId} />}
      {usdtOrderId !== undefined && <UsdtDeposit key={usdtOrderId} orderId={usdtOrderId} />}
      <h3>{text.historyTitle}</h3>
      <TopUpHistory refreshKey={`${props.refreshKey}:${usdtOrderId ?? ''}`} />
    </section>
  );
}
