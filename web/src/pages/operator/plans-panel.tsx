import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { SubscriptionPlan } from '../../../../contract/subscriptions.ts';
import { formatUsd } from '../../lib/format-usd.ts';
import { createPlan, listPlans, updatePlan } from './operator-api.ts';
import { useOperatorMessages } from './operator-messages.ts';

/** The 30-day plans: list, create, and take off or put back on sale. */
export function PlansPanel() {
  const text = useOperatorMessages();
  const [plans, setPlans] = useState<SubscriptionPlan[]>();
  const [error, setError] = useState<string>();
  const [name, setName] = useState('');
  const [price, setPrice] = useState('');
  const [discount, setDiscount] = useState('');
  const fail = (failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure));
  const load = useCallback(() => listPlans().then((list) => setPlans(list.data), fail), []);
  useEffect(() => void load(), [load]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await createPlan({ name, price_usd: price.trim(), discount_percent: Number(discount) });
      setName('');
      setPrice('');
      setDiscount('');
      setError(undefined);
      await load();
    } catch (failure) {
      fail(failure);
    }
  };

  return (
    <section className="operator-panel" aria-label={text.tabs.plans}>
      {plans?.length === 0 && <p>{text.plans.none}</p>}
      <ul className="operator-list">
        {plans?.map((plan) => (
          <li key={plan.id} className="operator-list__item">
            <div className="operator-list__main">
              <strong>{plan.name}</strong>
              <span>
                {formatUsd(plan.price_usd)} · −{plan.discount_percent}% · {plan.is_active ? text.plans.active : '—'}
              </span>
            </div>
            <div className="operator-list__actions">
              <button
                type="button"
                className="button button--small"
                onClick={() => void updatePlan(plan.id, { is_active: !plan.is_active }).then(load, fail)}
              >
                {plan.is_active ? text.plans.stopSelling : text.plans.startSelling}
              </button>
            </div>
          </li>
        ))}
      </ul>
      <form className="operator-form" onSubmit={(event) => void submit(event)}>
        <label className="field">
          <span className="field__label">{text.plans.name}</span>
          <input name="plan-name" required value={name} onChange={(event) => setName(event.target.value)} />
        </label>
        <label className="field">
          <span className="field__label">{text.plans.price}</span>
          <input
            name="plan-price"
            inputMode="decimal"
            required
            value={price}
            onChange={(event) => setPrice(event.target.value)}
          />
        </label>
        <label className="field">
          <span className="field__label">{text.plans.discount}</span>
          <input
            name="plan-discount"
            type="number"
            min="0"
            max="40"
            step="0.01"
            required
            value={discount}
            onChange={(event) => setDiscount(event.target.value)}
          />
        </label>
        <button type="submit" className="button button--primary">
          {text.plans.create}
        </button>
      </form>
      {error && (
        <p className="notice notice--error" role="alert">
          {text.failed} {error}
        </p>
      )}
    </section>
  );
}
