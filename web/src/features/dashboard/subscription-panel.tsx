import { useState } from 'react';
import type { AccountSubscription, SubscriptionPlan } from '../../../../contract/subscriptions.ts';
import { buySubscription, getSubscription, setAutoRenew } from '../../api/account-api.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { formatDate } from '../../lib/format-date.ts';
import { formatPercent, formatUsd } from '../../lib/format-usd.ts';
import { useLoad } from '../../lib/use-load.ts';

/**
 * The account's subscription: status, renewal, and the plans on sale, bought from the balance. Each purchase
 * carries a `purchase_id` made once per plan on this page, so a retried click never pays twice.
 */
export function SubscriptionPanel(props: { onChanged: () => void }) {
  const { messages, language } = useI18n();
  const text = messages.dashboard;
  const { state, reload } = useLoad((signal) => getSubscription({ signal }), 'subscription');
  const [purchaseIds] = useState(() => new Map<string, string>());
  const [notice, setNotice] = useState<{ tone: 'info' | 'error'; message: string } | undefined>();
  const [isWorking, setIsWorking] = useState(false);
  // The box shows a choice at once, while the subscription it was made on is the one shown; the next answer from
  // the server replaces it.
  const [autoRenewChoice, setAutoRenewChoice] = useState<{ isOn: boolean; madeOn: AccountSubscription }>();
  const loaded = state.status === 'ready' ? state.value : undefined;

  const run = async (action: () => Promise<unknown>, success?: string) => {
    setIsWorking(true);
    setNotice(undefined);
    try {
      await action();
      if (success) setNotice({ tone: 'info', message: success });
      reload();
      props.onChanged();
    } catch (caught) {
      setAutoRenewChoice(undefined);
      setNotice({ tone: 'error', message: caught instanceof Error ? caught.message : String(caught) });
    } finally {
      setIsWorking(false);
    }
  };
  const chooseAutoRenew = (isOn: boolean) => {
    if (loaded) setAutoRenewChoice({ isOn, madeOn: loaded });
    void run(() => setAutoRenew(isOn));
  };

  const buy = (plan: SubscriptionPlan) => {
    if (!window.confirm(text.confirmBuy(plan.name, formatUsd(plan.price_usd)))) return;
    const purchaseId = purchaseIds.get(plan.id) ?? `web-${crypto.randomUUID()}`;
    purchaseIds.set(plan.id, purchaseId);
    void run(async () => {
      await buySubscription({ plan_id: plan.id, purchase_id: purchaseId });
      purchaseIds.delete(plan.id);
    }, text.bought);
  };

  return (
    <section className="card dashboard__panel" aria-labelledby="subscription-title" data-panel="subscription">
      <h2 id="subscription-title">{text.subscriptionTitle}</h2>
      {state.status === 'loading' && <p className="status">{messages.common.loading}</p>}
      {state.status === 'error' && <p className="notice notice--error">{state.message}</p>}
      {state.status === 'ready' && (
        <SubscriptionStatus
          value={state.value}
          language={language}
          isWorking={isWorking}
          autoRenewChoice={autoRenewChoice?.madeOn === state.value ? autoRenewChoice.isOn : undefined}
          onAutoRenew={chooseAutoRenew}
          onBuy={buy}
        />
      )}
      {notice && (
        <p className={`notice notice--${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
          {notice.message}
        </p>
      )}
    </section>
  );
}

function SubscriptionStatus(props: {
  value: AccountSubscription;
  language: string;
  isWorking: boolean;
  /** What the user just chose, until the stored value arrives. */
  autoRenewChoice: boolean | undefined;
  onAutoRenew: (isOn: boolean) => void;
  onBuy: (plan: SubscriptionPlan) => void;
}) {
  const { messages } = useI18n();
  const text = messages.dashboard;
  const { subscription, plans } = props.value;
  return (
    <>
      {subscription === null ? (
        <p>{text.subscriptionNone}</p>
      ) : subscription.is_active ? (
        <p>
          {text.subscriptionActive(
            subscription.plan_name,
            formatPercent(subscription.discount_percent),
            formatDate(subscription.expires_at, props.language),
          )}
        </p>
      ) : (
        <p>{text.subscriptionEnded(subscription.plan_name, formatDate(subscription.expires_at, props.language))}</p>
      )}
      {props.value.discount_percent > 0 && <p>{text.currentDiscount(formatPercent(props.value.discount_percent))}</p>}
      {subscription?.is_active && (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={props.autoRenewChoice ?? subscription.is_auto_renewing}
            disabled={props.isWorking}
            onChange={(event) => props.onAutoRenew(event.target.checked)}
          />
          {text.autoRenew}
        </label>
      )}
      {subscription?.renewal_failure && (
        <p className="notice notice--error">{text.renewalFailed(subscription.renewal_failure)}</p>
      )}
      <h3>{text.plansTitle}</h3>
      {plans.length === 0 ? (
        <p className="status">{text.noPlans}</p>
      ) : (
        <ul className="plans">
          {plans.map((plan) => {
            const isCurrent = subscription?.is_active === true && subscription.plan_id === plan.id;
            const price = formatUsd(plan.price_usd);
            return (
              <li key={plan.id} className="plans__item" data-plan-id={plan.id}>
                <span>
                  <strong>{plan.name}</strong> — {text.planLine(formatPercent(plan.discount_percent), plan.period_days)}
                </span>
                <button
                  type="button"
                  className="button button--secondary"
                  disabled={props.isWorking}
                  onClick={() => props.onBuy(plan)}
                >
                  {isCurrent ? text.extendPlan(price) : text.buyPlan(price)}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
