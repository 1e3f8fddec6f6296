import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startStripeSimulator } from '../../../../../simulators/payments/stripe/start-stripe-simulator.ts';
import type { StripeSimulator } from '../../../../../simulators/payments/stripe/start-stripe-simulator.ts';
import type { CreatePaymentInput, PaymentEvent, PaymentProvider } from '../../payment-provider.ts';
import { WebhookRejectedError } from '../../payment-provider.ts';
import { requestBuffered } from '../../../upstream/request-buffered.ts';
import { acceptedEvents, startWebhookReceiver } from '../test-support/start-webhook-receiver.ts';
import { createStripeProvider } from './stripe-provider.ts';

const webhookSecret = 'whsec_test_secret';
let nowMs = Date.now();
const clock = { nowMs: () => nowMs };

function orderInput(orderId: string, cents: number): CreatePaymentInput {
  return {
    orderId,
    userId: 'user-1',
    method: 'card_usd',
    amount: { currency: 'USD', minorUnits: cents },
    description: 'Balance top-up',
    customerEmail: 'payer@example.com',
    returnUrl: `http://127.0.0.1:9/billing/return?order=${orderId}`,
  };
}

function sign(body: string, timestampSeconds: number, secret = webhookSecret): string {
  return createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
}

describe('Stripe Checkout client against the Stripe simulator', () => {
  let simulator: StripeSimulator;
  let provider: PaymentProvider;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  const eventsOf = (sessionId: string): PaymentEvent[] =>
    acceptedEvents(receiver.received).filter((event) =>
      'payment' in event
        ? event.payment.providerPaymentId === sessionId
        : 'providerPaymentId' in event && event.providerPaymentId === sessionId,
    );

  before(async () => {
    receiver = await startWebhookReceiver({ providerId: 'stripe', getProvider: () => provider });
    simulator = await startStripeSimulator({
      notificationUrl: receiver.url,
      secretKey: 'sk_test_1',
      webhookSecret,
      retryDelaysMs: [20, 20],
    });
    provider = createStripeProvider({
      secretKey: 'sk_test_1',
      webhookSecret,
      apiBaseUrl: simulator.url,
      isSandbox: true,
      http: (call) => requestBuffered(call),
      clock,
    });
  });
  after(async () => {
    await simulator.close();
    await receiver.close();
  });

  it('creates a session, is paid on the hosted page, and the signed event becomes one succeeded event in cents', async () => {
    nowMs = Date.now();
    const created = await provider.createPayment(orderInput('order-paid', 123456));
    assert.match(await fetch(created.confirmationUrl).then((answer) => answer.text()), /1234\.56 USD/);
    assert.equal((await fetch(`${created.confirmationUrl}/pay`, { method: 'POST', redirect: 'manual' })).status, 303);
    await simulator.whenNotificationsSettled();
    const events = eventsOf(created.providerPaymentId);
    assert.equal(events.length, 1);
    assert.match(events[0]?.eventKey ?? '', /^evt_/);
    assert.deepEqual(events[0]?.kind === 'succeeded' ? events[0].payment : undefined, {
      providerPaymentId: created.providerPaymentId,
      orderId: 'order-paid',
      status: 'succeeded',
      amount: { currency: 'USD', minorUnits: 123456 },
      refundedMinorUnits: 0,
      isTest: true,
      cancellationReason: undefined,
    });
  });

  it('replays the same session for the same order and refuses the same key with other parameters', async () => {
    const first = await provider.createPayment(orderInput('order-idem', 500));
    const again = await provider.createPayment(orderInput('order-idem', 500));
    assert.equal(again.providerPaymentId, first.providerPaymentId);
    await assert.rejects(
      provider.createPayment(orderInput('order-idem', 700)),
      (error: Error & { httpStatus?: number; isRetryable?: boolean }) =>
        error.httpStatus === 400 && error.isRetryable === false,
    );
  });

  it('treats a declined (expired) session as canceled, and a delayed payment as pending until it settles', async () => {
    const declined = await provider.createPayment(orderInput('order-declined', 500));
    await fetch(`${declined.confirmationUrl}/decline`, { method: 'POST', redirect: 'manual' });
    const delayed = await provider.createPayment(orderInput('order-delayed', 900));
    simulator.pay(delayed.providerPaymentId, { isDelayed: true });
    await simulator.whenNotificationsSettled();
    assert.deepEqual(
      eventsOf(declined.providerPaymentId).map((event) => event.kind),
      ['canceled'],
    );
    assert.deepEqual(
      eventsOf(delayed.providerPaymentId).map((event) => event.kind),
      [],
    );
    assert.ok(
      acceptedEvents(receiver.received).some((event) => event.kind === 'ignored' && /unpaid/.test(event.reason)),
    );
    assert.equal((await provider.fetchPayment(delayed.providerPaymentId)).status, 'pending');
    simulator.settleDelayedPayment(delayed.providerPaymentId, false);
    await simulator.whenNotificationsSettled();
    assert.deepEqual(
      eventsOf(delayed.providerPaymentId).map((event) => [
        event.kind,
        event.kind === 'canceled' ? event.payment.cancellationReason : '',
      ]),
      [['canceled', 'async_payment_failed']],
    );
  });

  it('emits each partial refund as its own delta, whatever order the charge.refunded events arrive in', async () => {
    const created = await provider.createPayment(orderInput('order-refund', 1000));
    simulator.pay(created.providerPaymentId);
    await simulator.whenNotificationsSettled();
    simulator.holdNotifications();
    await provider.refundPayment({
      providerPaymentId: created.providerPaymentId,
      amount: { currency: 'USD', minorUnits: 300 },
      idempotencyKey: 'refund-a',
    });
    await provider.refundPayment({
      providerPaymentId: created.providerPaymentId,
      amount: { currency: 'USD', minorUnits: 200 },
      idempotencyKey: 'refund-b',
    });
    await provider.refundPayment({
      providerPaymentId: created.providerPaymentId,
      amount: { currency: 'USD', minorUnits: 200 },
      idempotencyKey: 'refund-b',
    });
    simulator.releaseNotifications({ isReversed: true });
    await simulator.whenNotificationsSettled();
    const refunds = eventsOf(created.providerPaymentId).filter((event) => event.kind === 'refunded');
    assert.deepEqual(
      refunds.map((event) => [event.orderId, event.amount.minorUnits]),
      [
        ['order-refund', 200],
        ['order-refund', 300],
      ],
    );
    assert.equal((await provider.fetchPayment(created.providerPaymentId)).refundedMinorUnits, 500);
  });

  it('turns a dispute into a charge-back and a won dispute into its reversal', async () => {
    const created = await provider.createPayment(orderInput('order-dispute', 2500));
    simulator.pay(created.providerPaymentId);
    await simulator.whenNotificationsSettled();
    simulator.openDispute(created.providerPaymentId);
    await simulator.whenNotificationsSettled();
    simulator.closeDispute(created.providerPaymentId, 'won');
    await simulator.whenNotificationsSettled();
    const moves = eventsOf(created.providerPaymentId).filter((event) => event.kind !== 'succeeded');
    assert.deepEqual(
      moves.map((event) => [event.kind, 'amount' in event ? event.amount.minorUnits : 0]),
      [
        ['charged_back', 2500],
        ['chargeback_reversed', 2500],
      ],
    );
  });

  it('reports a wrong secret key as a 401 that is not worth retrying', async () => {
    const wrongKey = createStripeProvider({
      secretKey: 'sk_test_wrong',
      webhookSecret,
      apiBaseUrl: simulator.url,
      isSandbox: true,
      http: (call) => requestBuffered(call),
      clock,
    });
    const sessionsBefore = simulator.sessionCount();
    await assert.rejects(
      wrongKey.createPayment(orderInput('order-wrong-key', 500)),
      (error: Error & { httpStatus?: number; isRetryable?: boolean }) =>
        error.httpStatus === 401 && error.isRetryable === false,
    );
    assert.equal(simulator.sessionCount(), sessionsBefore);
  });

  it('gives a re-delivered event the same key', async () => {
    const created = await provider.createPayment(orderInput('order-duplicate', 600));
    simulator.pay(created.providerPaymentId);
    await simulator.whenNotificationsSettled();
    const [first] = eventsOf(created.providerPaymentId);
    simulator.resendEvent(first?.eventKey ?? '');
    await simulator.whenNotificationsSettled();
    assert.deepEqual(
      eventsOf(created.providerPaymentId).map((event) => event.eventKey),
      [first?.eventKey, first?.eventKey],
    );
  });

  it('rejects a forged signature, a modified body, a stale timestamp and a missing header; accepts a second v1 that matches', async () => {
    const body = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'customer.created',
      livemode: false,
      data: { object: {} },
    });
    const now = Math.floor(Date.now() / 1000);
    nowMs = now * 1000;
    const verify = (rawBody: string, header?: string) =>
      provider.verifyWebhook({
        rawBody: Buffer.from(rawBody),
        headers: header === undefined ? {} : { 'stripe-signature': header },
        contentType: 'application/json',
      });
    await assert.rejects(verify(body, `t=${now},v1=${sign(body, now, 'whsec_other')}`), WebhookRejectedError);
    await assert.rejects(
      verify(body.replace('customer', 'charge'), `t=${now},v1=${sign(body, now)}`),
      /no v1 signature/,
    );
    await assert.rejects(verify(body, `t=${now - 301},v1=${sign(body, now - 301)}`), /tolerance/);
    await assert.rejects(verify(body), /missing/);
    const events = await verify(body, `t=${now - 299},v1=${sign(body, now, 'whsec_old')},v1=${sign(body, now - 299)}`);
    assert.deepEqual(events, [
      { kind: 'ignored', eventKey: 'evt_1', reason: 'Stripe event customer.created needs no action' },
    ]);
    simulator.sendEvent('checkout.session.completed', {}, { timestampOffsetSeconds: -600 });
    await simulator.whenNotificationsSettled();
    assert.equal(receiver.received.at(-1)?.outcome, 'rejected');
  });
});
