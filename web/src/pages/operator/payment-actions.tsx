import { useState, type FormEvent } from 'react';
import type { OperatorPayment } from '../../../../contract/payments.ts';
import { parseAmountMinor } from '../../features/top-up/parse-amount-minor.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { useLoad } from '../../lib/use-load.ts';
import { CryptoDepositDetail } from './crypto-deposit-detail.tsx';
import { getPayment, markPaymentPaid, refundPayment } from './operator-payments-api.ts';
import { useOperatorMessages } from './operator-messages.ts';
import { usePaymentsMessages } from './payments-messages.ts';

const refundableStatuses: ReadonlySet<string> = new Set(['succeeded', 'partially_refunded']);
/** Orders not credited yet: an operator may credit one whose payment they found in the provider's records. */
const markableStatuses: ReadonlySet<string> = new Set(['created', 'pending', 'canceled', 'expired']);

/** One payment opened: every transition of its order, then a refund or a manual "mark paid" where they apply. */
export function PaymentActions(props: { paymentId: string; onChanged: (payment: OperatorPayment) => void }) {
  const common = useOperatorMessages();
  const [version, setVersion] = useState(0);
  const { state } = useLoad((signal) => getPayment(props.paymentId, { signal }), `${props.paymentId}:${version}`);
  // What the last action did; kept here because the form it came from may be gone once the payment reloads.
  const [done, setDone] = useState<string>();
  const changed = (payment: OperatorPayment, message: string) => {
    setDone(message);
    setVersion((count) => count + 1);
    props.onChanged(payment);
  };
  return (
    <div className="operator-payment" data-payment-detail={props.paymentId}>
      {done && (
        <p className="notice notice--info" role="status">
          {done}
        </p>
      )}
      {state.status === 'loading' && <p className="status">{common.loading}</p>}
      {state.status === 'error' && (
        <p className="notice notice--error" role="alert">
          {common.failed} {state.message}
        </p>
      )}
      {state.status === 'ready' && (
        <>
          <CryptoDepositDetail payment={state.value} />
          <Transitions payment={state.value} />
          {refundableStatuses.has(state.value.status) && (
            <ReasonForm payment={state.value} kind="refund" onDone={changed} />
          )}
          {markableStatuses.has(state.value.status) && (
            <ReasonForm payment={state.value} kind="markPaid" onDone={changed} />
          )}
        </>
      )}
    </div>
  );
}

function Transitions(props: { payment: OperatorPayment }) {
  const { language } = useI18n();
  return (
    <ol className="operator-payment__transitions" data-transitions>
      {props.payment.transitions.map((transition, index) => (
        <li key={index}>
          {formatDateTime(transition.at, language)}: {transition.from ?? '—'} → {transition.to} ({transition.cause})
        </li>
      ))}
    </ol>
  );
}

/** Refund (an optional amount, all that is left by default) or mark paid; both need a reason. */
function ReasonForm(props: {
  payment: OperatorPayment;
  kind: 'refund' | 'markPaid';
  onDone: (payment: OperatorPayment, message: string) => void;
}) {
  const text = usePaymentsMessages();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [notice, setNotice] = useState<string>();
  const [isWorking, setIsWorking] = useState(false);
  // One key per form: a double click or a retry after a network error refunds once.
  const [idempotencyKey] = useState(() => `console-${crypto.randomUUID()}`);
  const isRefund = props.kind === 'refund';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const amountMinor = amount.trim() === '' ? undefined : parseAmountMinor(amount, 2);
    if (isRefund && amount.trim() !== '' && amountMinor === undefined) {
      setNotice(text.badAmount);
      return;
    }
    setIsWorking(true);
    try {
      let changed: OperatorPayment;
      if (isRefund) {
        const request = { reason, idempotency_key: idempotencyKey };
        changed = await refundPayment(
          props.payment.id,
          amountMinor === undefined ? request : { ...request, amount_minor: amountMinor },
        );
      } else {
        changed = await markPaymentPaid(props.payment.id, { reason });
      }
      setNotice(undefined);
      props.onDone(changed, isRefund ? text.refundDone : text.markPaidDone);
    } catch (failure) {
      setNotice(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setIsWorking(false);
    }
  };

  return (
    <form
      className="operator-form"
      aria-label={isRefund ? text.refund : text.markPaid}
      data-action={props.kind}
      onSubmit={(event) => void submit(event)}
    >
      <strong>{isRefund ? text.refund : text.markPaid}</strong>
      {!isRefund && <p>{text.markPaidLead}</p>}
      {isRefund && (
        <label className="field">
          <span className="field__label">{text.refundAmount(props.payment.currency)}</span>
          <input name="amount" inputMode="decimal" value={amount} onChange={(event) => setAmount(event.target.value)} />
        </label>
      )}
      <label className="field">
        <span className="field__label">{text.reason}</span>
        <input
          name="reason"
          required
          minLength={3}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
      </label>
      <button type="submit" className="button button--primary" disabled={isWorking}>
        {text.confirm}
      </button>
      {notice && (
        <p className="notice notice--error" role="alert">
          {notice}
        </p>
      )}
    </form>
  );
}
