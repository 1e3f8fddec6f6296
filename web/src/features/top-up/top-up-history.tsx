import type { TopUpOrderView } from '../../../../contract/payments.ts';
import { listTopUps } from './top-up-api.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { formatUsd } from '../../lib/format-usd.ts';
import { useLoad } from '../../lib/use-load.ts';
import { Link } from '../../router/link.tsx';
import { formatMinor } from './parse-amount-minor.ts';
import { topUpReceiptPath, topUpReturnPath } from './top-up-paths.ts';

/** Statuses whose payment went through, so a receipt exists (a later refund is shown on the receipt). */
const paidStatuses: ReadonlySet<string> = new Set(['succeeded', 'partially_refunded', 'refunded', 'charged_back']);

export const isPaidTopUp = (order: TopUpOrderView): boolean => paidStatuses.has(order.status);

/** The account's top-ups, newest first: status, amount paid, USD credited, rate, and the receipt of a paid one. */
export function TopUpHistory(props: { refreshKey: string }) {
  const { messages, language } = useI18n();
  const text = messages.topUp;
  const { state } = useLoad((signal) => listTopUps({ signal }), props.refreshKey);
  if (state.status === 'loading') return <p className="status">{messages.common.loading}</p>;
  if (state.status === 'error') return <p className="notice notice--error">{state.message}</p>;
  if (state.value.data.length === 0) return <p className="status">{text.historyEmpty}</p>;
  return (
    <div className="table-scroll">
      <table className="data-table top-up-history" data-top-up-history>
        <thead>
          <tr>
            <th scope="col">{text.columnDate}</th>
            <th scope="col">{text.columnMethod}</th>
            <th scope="col">{text.columnStatus}</th>
            <th scope="col">{text.columnPaid}</th>
            <th scope="col">{text.columnCredited}</th>
            <th scope="col">{text.columnRate}</th>
            <th scope="col">{text.columnReceipt}</th>
          </tr>
        </thead>
        <tbody>
          {state.value.data.map((order) => (
            <tr key={order.id} data-order-id={order.id} data-status={order.status}>
              <td>{formatDateTime(order.created_at, language)}</td>
              <td>
                {text.methods[order.method] ?? order.method}
                {order.is_sandbox && <span className="badge badge--sandbox">{text.sandboxBadge}</span>}
              </td>
              <td>{text.statuses[order.status] ?? order.status}</td>
              <td data-field="paid">{formatMinor(order.amount_minor, order.currency)}</td>
              <td data-field="credited">{isPaidTopUp(order) ? formatUsd(order.credit_usd) : '—'}</td>
              <td>{order.currency === 'USD' ? '—' : order.rate}</td>
              <td>
                {isPaidTopUp(order) ? (
                  <Link to={topUpReceiptPath(order.id)}>{text.receiptLink}</Link>
                ) : order.status === 'pending' || order.status === 'created' || order.status === 'partially_paid' ? (
                  <Link to={topUpReturnPath(order.id)}>{text.columnStatus}</Link>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
