import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { OperatorUser } from '../../../../contract/operator.ts';
import { formatUsd } from '../../lib/format-usd.ts';
import { adjustBalance, listUsers, setUserStatus } from './operator-api.ts';
import { useOperatorMessages } from './operator-messages.ts';
import { parseUsdMicros } from './parse-usd-micros.ts';

/** Search accounts by e-mail, block or unblock them, and credit or debit a balance with a reason. */
export function UsersPanel() {
  const text = useOperatorMessages();
  const [search, setSearch] = useState('');
  const [users, setUsers] = useState<OperatorUser[] | undefined>();
  const [error, setError] = useState<string>();
  const [adjusting, setAdjusting] = useState<string>();

  const load = useCallback(
    (email: string) =>
      listUsers(email).then(
        (list) => {
          setUsers(list.data);
          setError(undefined);
        },
        (failure: unknown) => setError(String(failure instanceof Error ? failure.message : failure)),
      ),
    [],
  );
  useEffect(() => void load(''), [load]);

  const toggleStatus = async (user: OperatorUser) => {
    try {
      const updated = await setUserStatus(user.id, user.status === 'active' ? 'blocked' : 'active');
      setUsers((current) => current?.map((row) => (row.id === updated.id ? updated : row)));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };

  return (
    <section className="operator-panel" aria-label={text.tabs.users}>
      <form
        className="operator-form operator-form--inline"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          void load(search.trim());
        }}
      >
        <label className="field">
          <span className="field__label">{text.users.search}</span>
          <input type="search" name="email" value={search} onChange={(event) => setSearch(event.target.value)} />
        </label>
        <button type="submit" className="button button--secondary">
          {text.users.search}
        </button>
      </form>
      {error && (
        <p className="notice notice--error" role="alert">
          {text.failed} {error}
        </p>
      )}
      {users?.length === 0 && <p>{text.users.none}</p>}
      <ul className="operator-list">
        {users?.map((user) => (
          <li key={user.id} className="operator-list__item" data-user-email={user.email}>
            <div className="operator-list__main">
              <strong>{user.email}</strong>
              <span className={`operator-status operator-status--${user.status}`}>{text.users[user.status]}</span>
            </div>
            <div className="operator-list__meta">
              {text.users.balance}: <span data-field="balance">{formatUsd(user.balance_usd)}</span>
              {user.contract_discount_percent > 0 && ` · ${text.users.discount}: ${user.contract_discount_percent}%`}
            </div>
            <div className="operator-list__actions">
              <button type="button" className="button button--small" onClick={() => void toggleStatus(user)}>
                {user.status === 'active' ? text.users.block : text.users.unblock}
              </button>
              <button
                type="button"
                className="button button--small"
                onClick={() => setAdjusting(adjusting === user.id ? undefined : user.id)}
              >
                {text.users.adjust}
              </button>
            </div>
            {adjusting === user.id && <AdjustForm user={user} onDone={() => void load(search.trim())} />}
          </li>
        ))}
      </ul>
    </section>
  );
}

function AdjustForm(props: { user: OperatorUser; onDone: () => void }) {
  const text = useOperatorMessages();
  const [direction, setDirection] = useState<'credit' | 'debit'>('credit');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [status, setStatus] = useState<{ tone: 'info' | 'error'; message: string }>();
  // One idempotency key per form: a double click or a retry after a network error posts once.
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const amountMicros = parseUsdMicros(amount);
    if (amountMicros === undefined || amountMicros <= 0) {
      setStatus({ tone: 'error', message: text.users.badAmount });
      return;
    }
    try {
      await adjustBalance(props.user.id, {
        direction,
        amount_micros: amountMicros,
        reason,
        idempotency_key: idempotencyKey,
      });
      setStatus({ tone: 'info', message: text.users.applied });
      setIdempotencyKey(crypto.randomUUID());
      setAmount('');
      props.onDone();
    } catch (failure) {
      setStatus({ tone: 'error', message: failure instanceof Error ? failure.message : String(failure) });
    }
  };

  return (
    <form className="operator-form" onSubmit={(event) => void submit(event)}>
      <label className="field">
        <span className="field__label">{text.users.adjust}</span>
        <select value={direction} onChange={(event) => setDirection(event.target.value as 'credit' | 'debit')}>
          <option value="credit">{text.users.credit}</option>
          <option value="debit">{text.users.debit}</option>
        </select>
      </label>
      <label className="field">
        <span className="field__label">{text.users.amountUsd}</span>
        <input name="amount" inputMode="decimal" value={amount} onChange={(event) => setAmount(event.target.value)} />
      </label>
      <label className="field">
        <span className="field__label">{text.users.reason}</span>
        <input name="reason" required value={reason} onChange={(event) => setReason(event.target.value)} />
      </label>
      <button type="submit" className="button button--primary">
        {text.users.apply}
      </button>
      {status && (
        <p className={`notice notice--${status.tone}`} role={status.tone === 'error' ? 'alert' : 'status'}>
          {status.message}
        </p>
      )}
    </form>
  );
}
