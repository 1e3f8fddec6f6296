import { useLoad } from '../../lib/use-load.ts';
import { listPaymentWebhooks } from './operator-payments-api.ts';
import { useOperatorMessages } from './operator-messages.ts';
import { usePaymentsMessages } from './payments-messages.ts';

/** The address each running provider must be told to notify (the same lines the gateway logs at start-up). */
export function PaymentWebhooksView() {
  const text = usePaymentsMessages();
  const common = useOperatorMessages();
  const { state } = useLoad((signal) => listPaymentWebhooks({ signal }), 'webhooks');
  return (
    <section aria-labelledby="payment-webhooks-title" data-payment-webhooks>
      <h2 id="payment-webhooks-title">{text.webhooksTitle}</h2>
      <p>{text.webhooksLead}</p>
      {state.status === 'loading' && <p className="status">{common.loading}</p>}
      {state.status === 'error' && (
        <p className="notice notice--error" role="alert">
          {common.failed} {state.message}
        </p>
      )}
      {state.status === 'ready' && state.value.data.length === 0 && <p>{text.webhooksNone}</p>}
      {state.status === 'ready' && state.value.data.length > 0 && (
        <ul className="operator-list">
          {state.value.data.map((webhook) => (
            <li key={webhook.provider} className="operator-list__item" data-provider={webhook.provider}>
              <div className="operator-list__main">
                <strong>{webhook.provider}</strong>
                <code data-field="url">{webhook.url}</code>
              </div>
              <div className="operator-list__meta">
                {webhook.methods.join(', ')}
                {webhook.is_sandbox && ` · ${text.webhooksSandbox}`}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
