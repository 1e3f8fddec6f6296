import type { PaymentEvent } from '../../payment-provider.ts';
import { WebhookRejectedError } from '../../payment-provider.ts';
import { convertStripeSession } from './convert-stripe-session.ts';
import type { StripeEvent, StripeSession } from './stripe-api.ts';
import { stripeChargeSchema, stripeDisputeSchema, stripeSessionSchema } from './stripe-api.ts';

/** Refunds and disputes name a PaymentIntent; the session (our payment id and order id) is looked up from it. */
export type StripeLookups = {
  findSessionByPaymentIntent: (paymentIntentId: string) => Promise<StripeSession | undefined>;
};

type MoneyEventKind = 'refunded' | 'charged_back' | 'chargeback_reversed';

/**
 * A verified Stripe event → our events; `eventKey` is the event id, so a re-delivered event is recognised.
 * @see https://docs.stripe.com/checkout/fulfillment and https://docs.stripe.com/api/events/types
 */
export async function convertStripeEvent(event: StripeEvent, lookups: StripeLookups): Promise<PaymentEvent> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired':
      return convertSessionEvent(event);
    case 'charge.refunded':
      return convertRefundEvent(event, lookups);
    case 'charge.dispute.created':
    case 'charge.dispute.closed':
      return convertDisputeEvent(event, lookups);
    default:
      return ignore(event, `Stripe event ${event.type} needs no action`);
  }
}

function ignore(event: StripeEvent, reason: string): PaymentEvent {
  return { kind: 'ignored', eventKey: event.id, reason };
}

function convertSessionEvent(event: StripeEvent): PaymentEvent {
  const parsed = stripeSessionSchema.safeParse(event.data.object);
  const payment = parsed.success ? convertStripeSession(parsed.data) : undefined;
  if (!payment) throw new WebhookRejectedError(`the ${event.type} session is malformed or not in USD`);
  if (event.type === 'checkout.session.async_payment_failed') {
    return {
      kind: 'canceled',
      eventKey: event.id,
      payment: { ...payment, status: 'canceled', cancellationReason: 'async_payment_failed' },
    };
  }
  if (event.type === 'checkout.session.expired') return { kind: 'canceled', eventKey: event.id, payment };
  // A completed session may still be unpaid (a delayed method); the async_payment_* event settles it later.
  if (payment.status !== 'succeeded') return ignore(event, `${event.type} with payment_status unpaid`);
  return { kind: 'succeeded', eventKey: event.id, payment };
}

/**
 * `amount_refunded` is the charge's running total, so the refund alone is the total minus
 * `previous_attributes.amount_refunded` (the changed fields' old values, which an update event carries). That is correct whatever order
 * the refund events arrive in. Without it the amount of this refund cannot be known, so the event is reported as
 * ignored with the reason (for the operator to reconcile), never guessed.
 */
async function convertRefundEvent(event: StripeEvent, lookups: StripeLookups): Promise<PaymentEvent> {
  const charge = stripeChargeSchema.safeParse(event.data.object);
  if (!charge.success || charge.data.currency !== 'usd')
    throw new WebhookRejectedError('the refunded charge is malformed or not in USD');
  const previous = event.data.previous_attributes?.amount_refunded;
  if (typeof previous !== 'number' || !Number.isInteger(previous) || previous > charge.data.amount_refunded) {
    return ignore(event, `charge.refunded for ${charge.data.id} without a usable previous_attributes.amount_refunded`);
  }
  return convertMoneyEvent({
    event,
    kind: 'refunded',
    paymentIntentId: charge.data.payment_intent,
    cents: charge.data.amount_refunded - previous,
    lookups,
  });
}

async function convertDisputeEvent(event: StripeEvent, lookups: StripeLookups): Promise<PaymentEvent> {
  const dispute = stripeDisputeSchema.safeParse(event.data.object);
  if (!dispute.success || dispute.data.currency !== 'usd')
    throw new WebhookRejectedError('the dispute is malformed or not in USD');
  if (event.type === 'charge.dispute.closed' && dispute.data.status !== 'won') {
    return ignore(event, `dispute ${dispute.data.id} closed as ${dispute.data.status}: the debit stands`);
  }
  const kind = event.type === 'charge.dispute.created' ? 'charged_back' : 'chargeback_reversed';
  return convertMoneyEvent({
    event,
    kind,
    paymentIntentId: dispute.data.payment_intent,
    cents: dispute.data.amount,
    lookups,
  });
}

async function convertMoneyEvent(input: {
  event: StripeEvent;
  kind: MoneyEventKind;
  paymentIntentId: string | null;
  cents: number;
  lookups: StripeLookups;
}): Promise<PaymentEvent> {
  const session = input.paymentIntentId
    ? await input.lookups.findSessionByPaymentIntent(input.paymentIntentId)
    : undefined;
  // A charge made outside Checkout (e.g. by hand in the Dashboard) is not one of our payments.
  if (!session) return ignore(input.event, `${input.event.type} for a payment that is not a Checkout Session`);
  return {
    kind: input.kind,
    eventKey: input.event.id,
    providerPaymentId: session.id,
    orderId: session.client_reference_id ?? session.metadata?.order_id,
    amount: { currency: 'USD', minorUnits: input.cents },
    isTest: !input.event.livemode,
  };
}
