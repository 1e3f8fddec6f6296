import '../dashboard/dashboard.css';
import './top-up.css';
import type { TopUpOrderView } from '../../../../contract/payments.ts';
import { RequireSignIn } from '../auth/require-sign-in.tsx';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { formatUsd } from '../../lib/format-usd.ts';
import { Link } from '../../router/link.tsx';
import { routePaths } from '../../router/match-route.ts';
import { useRouter } from '../../router/router-provider.tsx';
import { usePageTitle } from '../../router/use-page-title.ts';
import { formatMinor } from './parse-amount-minor.ts';
import { isPaidTopUp } from './top-up-history.tsx';
import { topUpReceiptPath } from './top-up-paths.ts';
import { isWaitingTopUp, useTopUpOrder } from './use-top-up-order.ts';
import { UsdtDeposit } from './usdt-deposit.tsx';

const pollMs = 2000;

/** A USDT order is followed by its own deposit view, so this page stops asking once it knows the order is one. */
const isWaitingCardOrder = (order: TopUpOrderView): boolean => !order.crypto_deposit && isWaitingTopUp(order);

/**
 * `/billing/return?order=<id>`: where the provider sends the payer back. Follows the order until it settles and
 * says what happened; a paid order links to its receipt. A USDT order shows its deposit address and progress.
 */
export function TopUpReturnPage() {
  const text = useI18n().messages.topUp;
  usePageTitle(text.returnTitle);
  const orderId = new URLSearchParams(useRouter().location.search).get('order');
  return (
    <RequireSignIn>
      {() => (
        <div className="page container top-up-return">
          <h1>{text.returnTitle}</h1>
          {orderId ? <OrderProgress orderId={orderId} /> : <p className="notice notice--error">{text.returnMissing}</p>}
          <p>
            <Link to={routePaths.dashboard}>{text.backToDashboard}</Link>
          </p>
        </div>
      )}
    </RequireSignIn>
  );
}

function OrderProgress(props: { orderId: string }) {
  const { messages } = useI18n();
  const state = useTopUpOrder(props.orderId, pollMs, isWaitingCardOrder);
  if (state.status === 'loading') return <p className="status">{messages.common.loading}</p>;
  if (state.status === 'error') {
    return (
      <p className="notice notice--error" role="alert">
        {state.message}
      </p>
    );
  }
  if (state.order.crypto_deposit) return <UsdtDeposit orderId={props.orderId} />;
  return <OrderOutcome order={state.order} />;
}

function OrderOutcome(props: { order: TopUpOrderView }) {
  const text = useI18n().messages.topUp;
  const { order } = props;
  return (
    <div data-order-id={order.id} data-status={order.status}>
      <p>
        {text.methods[order.method] ?? order.method}: {formatMinor(order.amount_minor, order.currency)} →{' '}
        {formatUsd(order.credit_usd)}
      </p>
      {order.is_sandbox && <p className="notice notice--sandbox">{text.sandbox}</p>}
      {isWaitingTopUp(order) ? (
        <p className="status" role="status" data-outcome="waiting">
          {text.returnWaiting}
        </p>
      ) : order.status === 'succeeded' ? (
        <p className="notice notice--info" role="status" data-outcome="succeeded">
          {text.returnSucceeded(formatUsd(order.credit_usd))}
        </p>
      ) : isPaidTopUp(order) ? (
        <p className="notice notice--info" role="status" data-outcome="refunded">
          {text.returnRefunded}
        </p>
      ) : (
        <p className="notice notice--error" role="alert" data-outcome="failed">
          {text.returnFailed}
        </p>
      )}
      {isPaidTopUp(order) && (
        <p>
          <Link to={topUpReceiptPath(order.id)}>{text.receiptLink}</Link>
        </p>
      )}
    </div>
  );
}
