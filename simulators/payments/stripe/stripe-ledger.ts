import type { StripeEventSender } from './stripe-event-sender.ts';
import type { Charge, Dispute, PaymentIntent, Session } from './stripe-objects.ts';
import { stripeId } from './stripe-objects.ts';

/** The simulator's sessions, PaymentIntents, charges and disputes, and the events each change sends. */
export function createStripeLedger(events: StripeEventSender) {
  const sessions = new Map<string, Session>();
  const intents = new Map<string, PaymentIntent>();
  const charges = new Map<string, Charge>();
  const disputes = new Map<string, Dispute>();
  const intentMetadata = new Map<string, Record<string, string>>();

  const intentOf = (session: Session) => (session.payment_intent ? intents.get(session.payment_intent) : undefined);

  function chargeSucceeded(session: Session, intent: PaymentIntent, eventType: string): void {
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
    charges.set(charge.id, charge);
    Object.assign(intent, { status: 'succeeded', latest_charge: charge.id });
    session.payment_status = 'paid';
    events.sendEvent(eventType, session);
  }

  function expandSession(session: Session, expand: readonly string[]): unknown {
    const intent = intentOf(session);
    if (!intent || !expand.some((path) => path.startsWith('payment_intent'))) return session;
    const charge = intent.latest_charge ? charges.get(intent.latest_charge) : undefined;
    const latestCharge = expand.includes('payment_intent.latest_charge') && charge ? charge : intent.latest_charge;
    return { ...session, payment_intent: { ...intent, latest_charge: latestCharge } };
  }

  function disputedCharge(sessionId: string): Charge | undefined {
    const session = sessions.get(sessionId);
    const intent = session ? intentOf(session) : undefined;
    return intent?.latest_charge ? charges.get(intent.latest_charge) : undefined;
  }

  return {
    addSession(session: Session, metadata: Record<string, string>): void {
      sessions.set(session.id, session);
      intentMetadata.set(session.id, metadata);
    },
    findSession: (sessionId: string) => sessions.get(sessionId),
    readSession: (sessionId: string, expand: readonly string[]) => {
      const session = sessions.get(sessionId);
      return session ? expandSession(session, expand) : undefined;
    },
    listSessions: (paymentIntentId: string | null) =>
      [...sessions.values()].filter(
        (session) => paymentIntentId === null || session.payment_intent === paymentIntentId,
      ),
    sessionCount: () => sessions.size,
    pay(sessionId: string, isDelayed: boolean): void {
      const session = sessions.get(sessionId);
      if (!session || session.status !== 'open') return;
      const intent: PaymentIntent = {
        id: stripeId('pi'),
        object: 'payment_intent',
        amount: session.amount_total,
        currency: session.currency,
        status: 'processing',
        metadata: intentMetadata.get(session.id) ?? {},
        latest_charge: null,
        livemode: false,
      };
      intents.set(intent.id, intent);
      Object.assign(session, { status: 'complete', payment_intent: intent.id, url: null });
      if (isDelayed) events.sendEvent('checkout.session.completed', session);
      else chargeSucceeded(session, intent, 'checkout.session.completed');
    },
    settleDelayed(sessionId: string, isSucceeded: boolean): void {
      const session = sessions.get(sessionId);
      const intent = session ? intentOf(session) : undefined;
      if (!session || !intent || intent.status !== 'processing') return;
      if (isSucceeded) return chargeSucceeded(session, intent, 'checkout.session.async_payment_succeeded');
      intent.status = 'requires_payment_method';
      events.sendEvent('checkout.session.async_payment_failed', session);
    },
    expire(sessionId: string): void {
      const session = sessions.get(sessionId);
      if (!session || session.status !== 'open') return;
      Object.assign(session, { status: 'expired', url: null });
      events.sendEvent('checkout.session.expired', session);
    },
    /** A refund of `amountText` cents (or of what is left), or the error code Stripe would give. */
    refund(paymentIntentId: string, amountText: string | null): object | string {
      const intent = intents.get(paymentIntentId);
      const charge = intent?.latest_charge ? charges.get(intent.latest_charge) : undefined;
      if (!charge) return 'resource_missing';
      const cents = amountText === null ? charge.amount - charge.amount_refunded : Number(amountText);
      if (!Number.isInteger(cents) || cents <= 0) return 'parameter_invalid_integer';
      if (charge.amount_refunded + cents > charge.amount)
        return charge.refunded ? 'charge_already_refunded' : 'amount_too_large';
      const previousAttributes = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
      charge.amount_refunded += cents;
      charge.refunded = charge.amount_refunded === charge.amount;
      const refund = {
        id: stripeId('re'),
        object: 'refund',
        amount: cents,
        charge: charge.id,
        currency: charge.currency,
        payment_intent: paymentIntentId,
        status: 'succeeded',
      };
      events.sendEvent('charge.refunded', { ...charge }, { previousAttributes });
      return refund;
    },
    openDispute(sessionId: string): void {
      const charge = disputedCharge(sessionId);
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
      disputes.set(charge.id, dispute);
      events.sendEvent('charge.dispute.created', { ...dispute });
    },
    closeDispute(sessionId: string, status: 'won' | 'lost'): void {
      const charge = disputedCharge(sessionId);
      const dispute = charge ? disputes.get(charge.id) : undefined;
      if (!dispute) return;
      dispute.status = status;
      events.sendEvent('charge.dispute.closed', { ...dispute });
    },
  };
}
