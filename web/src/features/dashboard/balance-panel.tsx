import { getBalance } from '../../api/account-api.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { formatDate } from '../../lib/format-date.ts';
import { formatUsd } from '../../lib/format-usd.ts';
import { useLoad } from '../../lib/use-load.ts';

/** Balance, what calls in flight hold, what is available, and the latest ledger movements. */
export function BalancePanel(props: { refreshKey: string }) {
  const { messages, language } = useI18n();
  const text = messages.dashboard;
  const { state } = useLoad((signal) => getBalance({ signal }), props.refreshKey);

  return (
    <section className="card dashboard__panel" aria-labelledby="balance-title" data-panel="balance">
      <h2 id="balance-title">{text.balanceTitle}</h2>
      {state.status === 'loading' && <p className="status">{messages.common.loading}</p>}
      {state.status === 'error' && <p className="notice notice--error">{state.message}</p>}
      {state.status === 'ready' && (
        <>
          <dl className="balance">
            <div className="balance__item">
              <dt>{text.balance}</dt>
              <dd data-amount="balance">{formatUsd(state.value.balance_usd)}</dd>
            </div>
            <div className="balance__item">
              <dt>{text.held}</dt>
              <dd data-amount="held">{formatUsd(state.value.held_usd)}</dd>
            </div>
            <div className="balance__item">
              <dt>{text.available}</dt>
              <dd data-amount="available">{formatUsd(state.value.available_usd)}</dd>
            </div>
          </dl>
          <h3>{text.recentMovements}</h3>
          {state.value.entries.length === 0 ? (
            <p className="status">{text.noMovements}</p>
          ) : (
            <ul className="movements">
              {state.value.entries.slice(0, 8).map((entry) => (
                <li key={entry.transaction_id} className="movements__item" data-kind={entry.kind}>
                  <span>{text.movementKinds[entry.kind] ?? entry.kind}</span>
                  <span className="movements__date">{formatDate(entry.created_at, language)}</span>
                  <span className={entry.amount_usd < 0 ? 'amount amount--debit' : 'amount'}>
                    {entry.amount_usd > 0 ? '+' : ''}
                    {formatUsd(entry.amount_usd)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
