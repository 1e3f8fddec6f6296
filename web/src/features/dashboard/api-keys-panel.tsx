import { useState } from 'react';
import type { ApiKey, CreatedApiKey } from '../../../../contract/api-keys.ts';
import { listApiKeys, revokeApiKey } from '../../api/account-api.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { formatDate, formatDateTime } from '../../lib/format-date.ts';
import { formatUsd } from '../../lib/format-usd.ts';
import { useLoad } from '../../lib/use-load.ts';
import { CreateKeyForm } from './create-key-form.tsx';
import { CreatedKeyNotice } from './created-key-notice.tsx';

/** The account's API keys: create (shown once), list with prefix and last four, revoke. */
export function ApiKeysPanel(props: { onChanged: () => void }) {
  const { messages } = useI18n();
  const text = messages.dashboard;
  const { state, reload } = useLoad((signal) => listApiKeys({ signal }), 'keys');
  const [created, setCreated] = useState<CreatedApiKey | undefined>();
  const [error, setError] = useState<string | undefined>();

  const revoke = async (key: ApiKey) => {
    if (!window.confirm(text.confirmRevoke(key.name))) return;
    setError(undefined);
    try {
      await revokeApiKey(key.id);
      if (created?.id === key.id) setCreated(undefined);
      reload();
      props.onChanged();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  };

  return (
    <section className="card dashboard__panel dashboard__panel--wide" aria-labelledby="keys-title" data-panel="keys">
      <h2 id="keys-title">{text.keysTitle}</h2>
      <p className="status">{text.keysLead}</p>
      <CreateKeyForm
        onCreated={(key) => {
          setCreated(key);
          reload();
          props.onChanged();
        }}
      />
      {created && <CreatedKeyNotice created={created} onDismiss={() => setCreated(undefined)} />}
      {error && (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      )}
      {state.status === 'loading' && <p className="status">{messages.common.loading}</p>}
      {state.status === 'error' && <p className="notice notice--error">{state.message}</p>}
      {state.status === 'ready' &&
        (state.value.data.length === 0 ? (
          <p className="status">{text.noKeys}</p>
        ) : (
          <KeyTable keys={state.value.data} onRevoke={(key) => void revoke(key)} />
        ))}
    </section>
  );
}

function KeyTable(props: { keys: ApiKey[]; onRevoke: (key: ApiKey) => void }) {
  const { messages, language } = useI18n();
  const text = messages.dashboard;
  const limitsOf = (key: ApiKey) => {
    const limits = [
      key.spend_cap_usd === null ? undefined : text.capLimit(formatUsd(key.spent_usd), formatUsd(key.spend_cap_usd)),
      key.daily_budget_usd === null ? undefined : text.dailyBudgetLimit(formatUsd(key.daily_budget_usd)),
      key.monthly_budget_usd === null ? undefined : text.monthlyBudgetLimit(formatUsd(key.monthly_budget_usd)),
      key.expires_at === null ? undefined : text.expiresLimit(formatDate(key.expires_at, language)),
      key.requests_per_minute === null ? undefined : text.rateLimit(key.requests_per_minute),
      key.allowed_models === null ? undefined : key.allowed_models.join(', '),
    ].filter(Boolean);
    return limits.length === 0 ? text.noLimits : limits.join(', ');
  };
  return (
    <div className="table-scroll">
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">{text.columnName}</th>
            <th scope="col">{text.columnKey}</th>
            <th scope="col">{text.columnCreated}</th>
            <th scope="col">{text.columnLastUsed}</th>
            <th scope="col">{text.columnLimits}</th>
            <th scope="col">
              <span className="visually-hidden">{text.revoke}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.keys.map((key) => (
            <tr key={key.id} data-key-id={key.id}>
              <td>{key.name}</td>
              <td>
                <code data-key-mask>{`${key.prefix}…${key.last_four}`}</code>
              </td>
              <td>{formatDateTime(key.created_at, language)}</td>
              <td>{key.last_used_at ? formatDateTime(key.last_used_at, language) : text.never}</td>
              <td>{limitsOf(key)}</td>
              <td>
                <button
                  type="button"
                  className="button button--small"
                  aria-label={text.revokeLabel(key.name)}
                  onClick={() => props.onRevoke(key)}
                >
                  {text.revoke}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
