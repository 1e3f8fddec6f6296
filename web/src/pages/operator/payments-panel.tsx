import { useCallback, useEffect, useState, type FormEvent } from 'react';
import {
  operatorPaymentQuerySchema,
  paymentMethodSchema,
  topUpStatusSchema,
  type OperatorPaymentList,
  type OperatorPaymentQuery,
} from '../../../../contract/payments.ts';
import { formatMinor } from '../../features/top-up/parse-amount-minor.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { formatUsd } from '../../lib/format-usd.ts';
import { listPayments } from './operator-payments-api.ts';
import { useOperatorMessages } from './operator-messages.ts';
import { PaymentActions } from './payment-actions.tsx';
import { PaymentWebhooksView } from './payment-webhooks-view.tsx';
import { usePaymentsMessages } from './payments-messages.ts';

type Payment = OperatorPaymentList['data'][number];
type Filters = Required<Pick<OperatorPaymentQuery, 'provider' | 'method' | 'status' | 'user_id' | 'from' | 'to'>>;
type FilterText = Record<keyof Filters, string>;

const providerIds = operatorPaymentQuerySchema.shape.provider.unwrap().options;
const emptyFilters: FilterText = { provider: '', method: '', status: '', user_id: '', from: '', to: '' };

/**
 * Top-ups of every account, newest first, filtered by provider, method, status, user and dates; a payment paid after
 * its order expired, or one that needs a look, is flagged. Refund and mark-paid act on one payment.
 */
export function PaymentsPanel() {
  const text = usePaymentsMessages();
  const common = useOperatorMessages();
  const [draft, setDraft] = useState<FilterText>(emptyFilters);
  const [payments, setPayments] = useState<Payment[]>();
  const [hasMore, setHasMore] = useState(false);
  const [error, setError] = useState<string>();
  const [open, setOpen] = useState<string>();

  const load = useCallback(async (filters: FilterText, before?: string) => {
    try {
      const query = operatorPaymentQuerySchema.parse({
        ...Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== '')),
        ...(before === undefined ? {} : { before }),
        limit: 50,
      });
      const page = await listPayments(query);
      setPayments((shown) => (before === undefined ? page.data : [...(shown ?? []), ...page.data]));
      setHasMore(page.has_more);
      setError(undefined);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  }, []);
  useEffect(() => void load(emptyFilters), [load]);

  // The changed payment stays in place (even when it no longer matches the filters) so its new state is seen.
  const replace = (changed: Payment) =>
    setPayments((shown) => shown?.map((payment) => (payment.id === changed.id ? changed : payment)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void load(draft);
  };
  const field = (name: keyof FilterText) => ({
    name,
    value: draft[name],
    onChange: (event: { target: { value: string } }) =>
      setDraft((current) => ({ ...current, [name]: event.target.value })),
  });

  return (
    <section className="operator-panel" aria-label={common.tabs.payments} data-panel="payments">
      <PaymentWebhooksView />
      <form className="operator-form operator-form--inline" aria-label={text.filters} onSubmit={submit}>
        <FilterSelect label={text.provider} options={providerIds} any={text.any} {...field('provider')} />
        <FilterSelect label={text.method} options={paymentMethodSchema.options} any={text.any} {...field('method')} />
        <FilterSelect label={text.status} options={topUpStatusSchema.options} any={text.any} {...field('status')} />
        <label className="field">
          <span className="field__label">{text.userId}</span>
          <input {...field('user_id')} />
        </label>
        <label className="field">
          <span className="field__label">{text.from}</span>
          <input type="date" {...field('from')} />
        </label>
        <label className="field">
          <span className="field__label">{text.to}</span>
          <input type="date" {...field('to')} />
        </label>
        <button type="submit" className="button button--secondary">
          {text.apply}
        </button>
      </form>
      {error && (
        <p className="notice notice--error" role="alert">
          {common.failed} {error}
        </p>
      )}
      {payments?.length === 0 && <p>{text.none}</p>}
      <ul className="operator-list" data-payments>
        {payments?.map((payment) => (
          <li
            key={payment.id}
            className="operator-list__item"
            data-payment-id={payment.id}
            data-status={payment.status}
          >
            <PaymentSummary payment={payment} />
            <div className="operator-list__actions">
              <button
                type="button"
                className="button button--small"
                aria-expanded={open === payment.id}
                onClick={() => setOpen(open === payment.id ? undefined : payment.id)}
              >
                {text.transitions}
              </button>
            </div>
            {open === payment.id && <PaymentActions paymentId={payment.id} onChanged={replace} />}
          </li>
        ))}
      </ul>
      {hasMore && payments && (
        <button
          type="button"
          className="button button--secondary"
          onClick={() => void load(draft, payments.at(-1)?.id)}
        >
          {text.more}
        </button>
      )}
    </section>
  );
}

function FilterSelect(props: {
  label: string;
  name: string;
  options: readonly string[];
  any: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
}) {
  return (
    <label className="field">
      <span className="field__label">{props.label}</span>
      <select name={props.name} value={props.value} onChange={props.onChange}>
        <option value="">{props.any}</option>
        {props.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </label>
  );
}

function PaymentSummary(props: { payment: Payment }) {
  const text = usePaymentsMessages();
  const { language } = useI18n();
  const { payment } = props;
  const returnedUsd = payment.refunded_usd + payment.charged_back_usd;
  return (
    <>
      <div className="operator-list__main">
        <strong>{formatMinor(payment.amount_minor, payment.currency)}</strong>
        <span className={`operator-status operator-status--${payment.status}`}>{payment.status}</span>
        {payment.is_sandbox && <span className="badge badge--sandbox">{text.sandbox}</span>}
      </div>
      <div className="operator-list__meta">
        {formatDateTime(payment.created_at, language)} · {payment.provider} · {payment.method} · {text.user}:{' '}
        <span data-field="user">{payment.user_id}</span> · {text.credit}: {formatUsd(payment.credit_usd)} · {text.rate}:{' '}
        {payment.rate}
        {returnedUsd > 0 && ` · ${text.returned}: ${formatUsd(returnedUsd)}`}
      </div>
      {payment.is_paid_after_expiry && (
        <p className="notice notice--error" data-flag="paid-after-expiry">
          {text.paidAfterExpiry}
        </p>
      )}
      {payment.status === 'partially_paid' && (
        <p className="notice notice--error" data-flag="partial">
          {text.partiallyPaid}
        </p>
      )}
      {payment.review_reason && (
        <p className="notice notice--error" data-flag="review">
          {text.review(payment.review_reason)}
        </p>
      )}
    </>
  );
}
