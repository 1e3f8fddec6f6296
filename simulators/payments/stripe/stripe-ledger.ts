import type { StripeEventSender } from './stripe-event-sender.ts';
import type { Charge, Dispute, PaymentIntent, Session } from './stripe-objects.ts';
import { stripeId } from './stripe-objects.ts';

/** The simulator's sessions, PaymentIntents, charges and disputes; each change below sends the event Stripe sends. */
export type StripeLedger = {
  sessions: Map<string, Session>;
  intents: Map<string, PaymentIntent>;
  charges: Map<string, Charge>;
  /** By charge id. */
  disputes: Map<string, Dispute>;
  /** `payment_intent_data[metadata]` of each session, given to its PaymentIntent when the payer pays. */
  intentMetadata: Map<string, Record<string, string>>;
  events: StripeEventSender;
};

export function createStripeLedger(events: StripeEventSender): StripeLedger {
  return {
    sessions: new Map(),
    intents: new Map(),
    charges: new Map(),
    disputes: new Map(),
    intentMetadata: new Map(),
    events,
  };
}

function intentOf(ledger: StripeLedger, session: Session): PaymentIntent | undefined {
  return session.payment_intent ? ledger.intents.get(session.payment_intent) : undefined;
}

function chargeOf(ledger: StripeLedger, sessionId: string): Charge | undefined {
  const session = ledger.sessions.get(sessionId);
  const intent = session ? intentOf(ledger, session) : undefined;
  return intent?.latest_charge ? ledger.charges.get(intent.latest_charge) : undefined;
}

function chargeSucceeded(ledger: StripeLedger, session: Session, intent: PaymentIntent, eventType: string): void {
  // A PaymentIntent's metadata is copied onto the charge it creates.
  const charge: Charge = {
    id: stripeId('ch'),
    object: 'charge',
    amount: intent.amount,
    amount_refunded: 0,
    refunded: false,
    currency: intent.currency,
    payment_intent: intent.id,
    metadata: { ...intent.metadata },
    livemode: false,
    status: 'succeeded',
  };
  ledger.charges.set(charge.id, charge);
  Object.assign(intent, { status: 'succeeded', latest_charge: charge.id });
  session.payment_status = 'paid';
  ledger.events.sendEvent(eventType, session);
}

/** A session as `GET /v1/checkout/sessions/{id}` shows it, with `expand[]` applied to its PaymentIntent. */
export function readSession(ledger: StripeLedger, sessionId: string, expand: readonly string[]): unknown {
  const session = ledger.sessions.get(sessionId);
  const intent = session ? intentOf(ledger, session) : undefined;
  if (!session || !intent || !expand.some((path) => path.startsWith('payment_intent'))) return session;
  const charge = intent.latest_charge ? ledger.charges.get(intent.latest_charge) : undefined;
  const latestCharge = expand.includes('payment_intent.latest_charge') && charge ? charge : intent.latest_charge;
  return { ...session, payment_intent: { ...intent, latest_charge: latestCharge } };
}

/** The payer completes Checkout; a delayed method leaves the session complete but unpaid until it settles. */
export function paySession(ledger: StripeLedger, sessionId: string, isDelayed: boolean): void {
  const session = ledger.sessions.get(sessionId);
  if (!session || session.status !== 'open') return;
  const intent: PaymentIntent = {
    id: stripeId('pi'),
    object: 'payment_intent',
    amount: session.amount_total,
    currency: session.currency,
    status: 'processing',
    metadata: ledger.intentMetadata.get(session.id) ?? {},
    latest_charge: null,
    livemode: false,
  };
  ledger.intents.set(intent.id, intent);
  Object.assign(session, { status: 'complete', payment_intent: intent.id, url: null });
  if (isDelayed) ledger.events.sendEvent('checkout.session.completed', session);
  else chargeSucceeded(ledger, session, intent, 'checkout.session.completed');
}

export function settleDelayedPayment(ledger: StripeLedger, sessionId: string, isSucceeded: boolean): void {
  const session = ledger.sessions.get(sessionId);
  const intent = session ? intentOf(ledger, session) : undefined;
  if (!session || !intent || intent.status !== 'processing') return;
  if (isSucceeded) return chargeSucceeded(ledger, session, intent, 'checkout.session.async_payment_succeeded');
  intent.status = 'requires_payment_method';
  ledger.events.sendEvent('checkout.session.async_payment_failed', session);
}

export function expireSession(ledger: StripeLedger, sessionId: string): void {
  const session = ledger.sessions.get(sessionId);
  if (!session || session.status !== 'open') return;
  Object.assign(session, { status: 'expired', url: null });
  ledger.events.sendEvent('checkout.session.expired', session);
}

/** A refund of `amountText` cents (or of what is left), or the error code Stripe would give. */
export function refundPaymentIntent(
  ledger: StripeLedger,
  paymentIntentId: string,
  amountText: string | null,
): object | string {
  const intent = ledger.intents.get(paymentIntentId);
  const charge = intent?.latest_charge ? ledger.charges.get(intent.latest_charge) : undefined;
  if (!charge) return 'resource_missing';
  const cents = amountText === null ? charge.amount - charge.amount_refunded : Number(amountText);
  if (!Number.isInteger(cents) || cents <= 0) return 'parameter_invalid_integer';
  if (charge.amount_refunded + cents > charge.amount)
    return charge.refunded ? 'charge_already_refunded' : 'amount_too_large';
  // charge.refunded carries the previous running total, so a receiver can tell this refund's own amount.
  const previousAttributes = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
  charge.amount_refunded += cents;
  charge.refunded = charge.amount_refunded === charge.amount;
  ledger.events.sendEvent('charge.refunded', { ...charge }, { previousAttributes });
  return {
    id: stripeId('re'),
    object: 'refund',
    amount: cents,
    charge: charge.id,
    currency: charge.currency,
    payment_intent: paymentIntentId,
    status: 'succeeded',
  };
}

export function openDispute(ledger: StripeLedger, sessionId: string): void {
  const charge = chargeOf(ledger, sessionId);
  if (!charge) return;
  const dispute: Dispute = {
    id: stripeId('dp'),
    object: 'dispute',
    amount: charge.amount,
    currency: charge.currency,
    charge: charge.id,
    payment_intent: charge.payment_intent,
    status: 'needs_response',
    reason: 'fraudulent',
    livemode: false,
  };
  ledger.disputes.set(charge.id, dispute);
  ledger.events.sendEvent('charge.dispute.created', { ...dispute });
}

export function closeDispute(ledger: StripeLedger, sessionId: string, status: 'won' | 'lost'): void {
  const charge = chargeOf(ledger, sessionId);
  const dispute = charge ? ledger.disputes.get(charge.id) : undefined;
  if (!dispute) return;
  dispute.status = status;
  ledger.events.sendEvent('charge.dispute.closed', { ...dispute });
}
