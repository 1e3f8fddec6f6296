import type { CreatePaymentInput, ProviderPayment } from '../../payment-provider.ts';
import type { StripeSession } from './stripe-api.ts';

/**
 * Our order → the form fields of `POST /v1/checkout/sessions`: one line item priced in cents, our order id in
 * client_reference_id and in the session's and the PaymentIntent's metadata (refunds and disputes see only the latter).
 * Both return URLs are ours and carry the order id, never a status. @see https://docs.stripe.com/api/checkout/sessions/create
 */
export function convertCreateSessionForm(input: CreatePaymentInput): URLSearchParams {
  return new URLSearchParams([
    ['mode', 'payment'],
    ['line_items[0][price_data][currency]', 'usd'],
    ['line_items[0][price_data][unit_amount]', String(input.amount.minorUnits)],
    ['line_items[0][price_data][product_data][name]', input.description.slice(0, 128)],
    ['line_items[0][quantity]', '1'],
    ['success_url', input.returnUrl],
    ['cancel_url', input.returnUrl],
    ['client_reference_id', input.orderId],
    ['customer_email', input.customerEmail],
    ['metadata[order_id]', input.orderId],
    ['metadata[user_id]', input.userId],
    ['payment_intent_data[metadata][order_id]', input.orderId],
  ]);
}

/** The session's refunded total, read from its PaymentIntent's latest charge when Stripe expanded it. */
function readRefundedCents(session: StripeSession): number {
  const intent = session.payment_intent;
  if (typeof intent !== 'object' || intent === null) return 0;
  const charge = intent.latest_charge;
  return typeof charge === 'object' && charge !== null ? charge.amount_refunded : 0;
}

/**
 * A Checkout Session → our normalised payment: paid is succeeded, expired is canceled, anything else (open, or
 * complete but still unpaid while a delayed method settles) is pending. Undefined when it is not a USD amount.
 * @see https://docs.stripe.com/api/checkout/sessions/object#checkout_session_object-payment_status
 */
export function convertStripeSession(session: StripeSession): ProviderPayment | undefined {
  if (session.currency !== 'usd' || session.amount_total === null) return undefined;
  const status =
    session.payment_status === 'paid' ? 'succeeded' : session.status === 'expired' ? 'canceled' : 'pending';
  return {
    providerPaymentId: session.id,
    orderId: session.client_reference_id ?? session.metadata?.order_id,
    status,
    amount: { currency: 'USD', minorUnits: session.amount_total },
    refundedMinorUnits: readRefundedCents(session),
    isTest: !session.livemode,
    cancellationReason: status === 'canceled' ? 'expired' : undefined,
  };
}

export function readPaymentIntentId(session: StripeSession): string | undefined {
  const intent = session.payment_intent;
  return typeof intent === 'string' ? intent : (intent?.id ?? undefined);
}
