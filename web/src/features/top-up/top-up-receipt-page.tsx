import './top-up.css';
import type { TopUpOrderView } from '../../../../contract/payments.ts';
import { RequireSignIn } from '../auth/require-sign-in.tsx';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { formatUsd } from '../../lib/format-usd.ts';
import { useLoad } from '../../lib/use-load.ts';
import { useRouter } from '../../router/router-provider.tsx';
import { usePageTitle } from '../../router/use-page-title.ts';
import { formatRateSource } from './format-rate-source.ts';
import { formatMinor } from './parse-amount-minor.ts';
import { getTopUp } from './top-up-api.ts';
import { isPaidTopUp } from './top-up-history.tsx';

/**
 * `/billing/receipt?order=<id>`: a printable receipt of one paid top-up (the print style sheet drops the site's
 * header, footer and the print button). A sandbox payment says so in large letters.
 */
export function TopUpReceiptPage() {
  const { messages } = useI18n();
  usePageTitle(messages.topUp.receiptTitle);
  const orderId = new URLSearchParams(useRouter().location.search).get('order') ?? '';
  const { state } = useLoad((signal) => getTopUp(orderId, { signal }), orderId);
  return (
    <RequireSignIn>
      {(me) => (
        <div className="page container top-up-receipt">
          <h1>{messages.topUp.receiptTitle}</h1>
          {state.status === 'loading' && <p className="status">{messages.common.loading}</p>}
          {state.status === 'error' && (
            <p className="notice notice--error" role="alert">
              {state.message}
            </p>
          )}
          {state.status === 'ready' && <Receipt order={state.value} email={me.email} />}
        </div>
      )}
    </RequireSignIn>
  );
}

function Receipt(props: { order: TopUpOrderView; email: string }) {
  const { messages, language } = useI18n();
  const text = messages.topUp;
  const { order } = props;
  if (!isPaidTopUp(order)) return <p className="notice notice--error">{text.receiptNotPaid}</p>;
  const returnedUsd = order.refunded_usd + order.charged_back_usd;
  const rows: [string, string, string][] = [
    [text.receiptOrder, order.id, 'order'],
    [text.receiptAccount, props.email, 'account'],
    [text.receiptDate, formatDateTime(order.updated_at, language), 'date'],
    [text.receiptMethod, text.methods[order.method] ?? order.method, 'method'],
    [text.receiptProvider, order.provider, 'provider'],
    [text.receiptPaid, formatMinor(order.amount_minor, order.currency), 'paid'],
    [text.receiptRate, `${order.rate} ${order.currency}/USD (${formatRateSource(order.rate_source, text)})`, 'rate'],
    [text.receiptCredited, formatUsd(order.credit_usd), 'credited'],
  ];
  if (returnedUsd > 0) rows.push([text.receiptRefunded, formatUsd(returnedUsd), 'returned']);
  return (
    <article className="top-up-receipt__sheet" data-receipt={order.id}>
      {order.is_sandbox && (
        <p className="top-up-receipt__sandbox" data-sandbox>
          {text.receiptSandbox}
        </p>
      )}
      <p className="top-up-receipt__site">{messages.site.name}</p>
      <dl className="top-up-receipt__items">
        {rows.map(([label, value, field]) => (
          <div key={field} className="top-up-receipt__item">
            <dt>{label}</dt>
            <dd data-field={field}>{value}</dd>
          </div>
        ))}
      </dl>
      <button type="button" className="button top-up-receipt__print" onClick={() => window.print()}>
        {text.receiptPrint}
      </button>
    </article>
  );
}
