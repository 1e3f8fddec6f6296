import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startYooKassaSimulator } from '../../../../../simulators/payments/yookassa/start-yookassa-simulator.ts';
import type { YooKassaSimulator } from '../../../../../simulators/payments/yookassa/start-yookassa-simulator.ts';
import type { CreatePaymentInput, PaymentProvider } from '../../payment-provider.ts';
import { WebhookRejectedError } from '../../payment-provider.ts';
import { requestBuffered } from '../../../upstream/request-buffered.ts';
import { acceptedEvents, startWebhookReceiver } from '../test-support/start-webhook-receiver.ts';
import { createYooKassaProvider } from './yookassa-provider.ts';

const clock = { nowMs: () => Date.now() };

function orderInput(
  orderId: string,
  minorUnits: number,
  method: CreatePaymentInput['method'] = 'card_rub',
): CreatePaymentInput {
  return {
    orderId,
    userId: 'user-1',
    method,
    amount: { currency: 'RUB', minorUnits },
    description: 'Balance top-up',
    customerEmail: 'payer@example.com',
    returnUrl: `http://127.0.0.1:9/billing/return?order=${orderId}`,
  };
}

function notificationBody(event: string, object: unknown): Buffer {
  return Buffer.from(JSON.stringify({ type: 'notification', event, object }));
}

describe('YooKassa client against the YooKassa simulator', () => {
  let simulator: YooKassaSimulator;
  let provider: PaymentProvider;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

  before(async () => {
    receiver = await startWebhookReceiver({ providerId: 'yookassa', getProvider: () => provider });
    simulator = await startYooKassaSimulator({
      notificationUrl: receiver.url,
      shopId: '100500',
      secretKey: 'test_secret',
      retryDelaysMs: [20, 20],
    });
    provider = createYooKassaProvider({
      shopId: '100500',
      secretKey: 'test_secret',
      apiBaseUrl: simulator.url,
      vatCode: 1,
      isSandbox: true,
      http: (call) => requestBuffered(call),
      clock,
      serverErrorRetryDelaysMs: [10, 10],
    });
  });
  after(async () => {
    await simulator.close();
    await receiver.close();
  });

  it('creates a payment, is paid, and turns the verified notification into one succeeded event with the exact amount', async () => {
    const created = await provider.createPayment(orderInput('order-paid', 123456));
    assert.match(created.confirmationUrl, /^http:\/\/127\.0\.0\.1:\d+\/checkout\//);
    const page = await fetch(created.confirmationUrl).then((answer) => answer.text());
    assert.match(page, /1234\.56 RUB/);
    const pressed = await fetch(`${created.confirmationUrl}/pay`, { method: 'POST', redirect: 'manual' });
    assert.equal(pressed.status, 303);
    await simulator.whenNotificationsSettled();
    const events = acceptedEvents(receiver.received).filter(
      (event) => event.eventKey === `${created.providerPaymentId}:succeeded`,
    );
    assert.equal(events.length, 1);
    assert.deepEqual(events[0], {
      kind: 'succeeded',
      eventKey: `${created.providerPaymentId}:succeeded`,
      payment: {
        providerPaymentId: created.providerPaymentId,
        orderId: 'order-paid',
        status: 'succeeded',
        amount: { currency: 'RUB', minorUnits: 123456 },
        refundedMinorUnits: 0,
        isTest: true,
        cancellationReason: undefined,
      },
    });
  });

  it('reports a declined payment as canceled with YooKassa reason', async () => {
    const created = await provider.createPayment(orderInput('order-declined', 20000, 'sbp'));
    const page = await fetch(created.confirmationUrl).then((answer) => answer.text());
    assert.match(page, /id="sbp-link"/);
    simulator.decline(created.providerPaymentId, 'insufficient_funds');
    await simulator.whenNotificationsSettled();
    const event = acceptedEvents(receiver.received).find(
      (entry) => entry.eventKey === `${created.providerPaymentId}:canceled`,
    );
    assert.equal(event?.kind, 'canceled');
    assert.equal(event.kind === 'canceled' ? event.payment.cancellationReason : undefined, 'insufficient_funds');
  });

  it('refunds part of a payment and emits the refund alone as the refunded amount', async () => {
    const created = await provider.createPayment(orderInput('order-refund', 50000, 'yoo_money'));
    simulator.pay(created.providerPaymentId);
    await simulator.whenNotificationsSettled();
    const { refundId } = await provider.refundPayment({
      providerPaymentId: created.providerPaymentId,
      amount: { currency: 'RUB', minorUnits: 12345 },
      idempotencyKey: 'refund-1',
    });
    const repeated = await provider.refundPayment({
      providerPaymentId: created.providerPaymentId,
      amount: { currency: 'RUB', minorUnits: 12345 },
      idempotencyKey: 'refund-1',
    });
    assert.equal(repeated.refundId, refundId);
    await simulator.whenNotificationsSettled();
    const refunds = acceptedEvents(receiver.received).filter(
      (event) => event.kind === 'refunded' && event.providerPaymentId === created.providerPaymentId,
    );
    assert.deepEqual(refunds, [
      {
        kind: 'refunded',
        eventKey: `refund:${refundId}:succeeded`,
        providerPaymentId: created.providerPaymentId,
        orderId: 'order-refund',
        amount: { currency: 'RUB', minorUnits: 12345 },
        isTest: true,
      },
    ]);
    const fetched = await provider.fetchPayment(created.providerPaymentId);
    assert.equal(fetched.refundedMinorUnits, 12345);
  });

  it('repeats a create answered 500 with the same Idempotence-Key and gets one payment', async () => {
    const before = simulator.paymentCount();
    simulator.failNextRequests(1);
    const first = await provider.createPayment(orderInput('order-500', 20000));
    const again = await provider.createPayment(orderInput('order-500', 20000));
    assert.equal(again.providerPaymentId, first.providerPaymentId);
    assert.equal(simulator.paymentCount(), before + 1);
  });

  it('rejects a notification whose payment YooKassa reports otherwise (forged success of a pending payment)', async () => {
    const created = await provider.createPayment(orderInput('order-forged', 20000));
    const pending = await fetch(`${simulator.url}/v3/payments/${created.providerPaymentId}`, {
      headers: { authorization: `Basic ${Buffer.from('100500:test_secret').toString('base64')}` },
    }).then((answer) => answer.json() as Promise<Record<string, unknown>>);
    const forged = notificationBody('payment.succeeded', { ...pending, status: 'succeeded', paid: true });
    await assert.rejects(
      provider.verifyWebhook({ rawBody: forged, headers: {}, contentType: 'application/json' }),
      WebhookRejectedError,
    );
    simulator.pay(created.providerPaymentId);
    await simulator.whenNotificationsSettled();
    const inflated = notificationBody('payment.succeeded', {
      ...pending,
      status: 'succeeded',
      paid: true,
      amount: { value: '99999.00', currency: 'RUB' },
    });
    await assert.rejects(
      provider.verifyWebhook({ rawBody: inflated, headers: {}, contentType: 'application/json' }),
      /disagrees/,
    );
    const otherOrder = notificationBody('payment.succeeded', {
      ...pending,
      status: 'succeeded',
      paid: true,
      metadata: { order_id: 'someone-else' },
    });
    await assert.rejects(
      provider.verifyWebhook({ rawBody: otherOrder, headers: {}, contentType: 'application/json' }),
      /disagrees/,
    );
  });

  it('answers non-200 while YooKassa cannot be asked, and the re-delivered notification is then accepted', async () => {
    const created = await provider.createPayment(orderInput('order-redelivered', 20000));
    const attemptsBefore = simulator.notificationAttempts().length;
    simulator.failNextRequests(3);
    simulator.pay(created.providerPaymentId);
    await simulator.whenNotificationsSettled();
    const attempts = simulator.notificationAttempts().slice(attemptsBefore);
    assert.deepEqual(
      attempts.map((attempt) => attempt.status),
      [503, 200],
    );
    assert.ok(
      acceptedEvents(receiver.received).some((event) => event.eventKey === `${created.providerPaymentId}:succeeded`),
    );
  });

  it('verifies a refund delivered before its payment and gives a duplicate delivery the same event key', async () => {
    const created = await provider.createPayment(orderInput('order-out-of-order', 30000));
    simulator.holdNotifications();
    simulator.pay(created.providerPaymentId);
    await provider.refundPayment({
      providerPaymentId: created.providerPaymentId,
      amount: { currency: 'RUB', minorUnits: 30000 },
      idempotencyKey: 'refund-ooo',
    });
    simulator.releaseNotifications({ isReversed: true });
    await simulator.whenNotificationsSettled();
    const kinds = acceptedEvents(receiver.received)
      .filter((event) =>
        'payment' in event
          ? event.payment.providerPaymentId === created.providerPaymentId
          : 'providerPaymentId' in event && event.providerPaymentId === created.providerPaymentId,
      )
      .map((event) => event.kind);
    assert.deepEqual(kinds, ['refunded', 'succeeded']);
    const body = notificationBody(
      'payment.succeeded',
      await fetch(`${simulator.url}/v3/payments/${created.providerPaymentId}`, {
        headers: { authorization: `Basic ${Buffer.from('100500:test_secret').toString('base64')}` },
      }).then((answer) => answer.json()),
    );
    const [first] = await provider.verifyWebhook({ rawBody: body, headers: {}, contentType: 'application/json' });
    const [second] = await provider.verifyWebhook({ rawBody: body, headers: {}, contentType: 'application/json' });
    assert.equal(first?.eventKey, `${created.providerPaymentId}:succeeded`);
    assert.equal(second?.eventKey, first?.eventKey);
  });

  it('a simulator that sends every notification twice yields two deliveries with one event key', async () => {
    const twice = await startYooKassaSimulator({
      notificationUrl: receiver.url,
      shopId: '100500',
      secretKey: 'test_secret',
      retryDelaysMs: [],
      isDuplicatingNotifications: true,
    });
    const client = createYooKassaProvider({
      shopId: '100500',
      secretKey: 'test_secret',
      apiBaseUrl: twice.url,
      vatCode: 1,
      isSandbox: true,
      http: (call) => requestBuffered(call),
      clock,
    });
    const previous = provider;
    provider = client;
    try {
      const created = await client.createPayment(orderInput('order-twice', 20000));
      twice.pay(created.providerPaymentId);
      await twice.whenNotificationsSettled();
      const keys = acceptedEvents(receiver.received)
        .filter((event) => event.kind === 'succeeded' && event.payment.providerPaymentId === created.providerPaymentId)
        .map((event) => event.eventKey);
      assert.deepEqual(keys, [`${created.providerPaymentId}:succeeded`, `${created.providerPaymentId}:succeeded`]);
    } finally {
      provider = previous;
      await twice.close();
    }
  });

  it('reports a wrong secret key as a 401 that is not worth retrying, and refuses a USD order', async () => {
    const wrongKey = createYooKassaProvider({
      shopId: '100500',
      secretKey: 'test_wrong',
      apiBaseUrl: simulator.url,
      vatCode: 1,
      isSandbox: true,
      http: (call) => requestBuffered(call),
      clock,
      serverErrorRetryDelaysMs: [],
    });
    await assert.rejects(
      wrongKey.createPayment(orderInput('order-wrong-key', 20000)),
      (error: Error & { httpStatus?: number; isRetryable?: boolean }) =>
        error.httpStatus === 401 && error.isRetryable === false,
    );
    await assert.rejects(
      provider.createPayment({
        ...orderInput('order-usd', 500),
        method: 'card_usd',
        amount: { currency: 'USD', minorUnits: 500 },
      }),
      /does not take card_usd/,
    );
  });

  it('rejects malformed bodies and leaves unknown events ignored', async () => {
    await assert.rejects(
      provider.verifyWebhook({ rawBody: Buffer.from('not json'), headers: {}, contentType: 'application/json' }),
      WebhookRejectedError,
    );
    await assert.rejects(
      provider.verifyWebhook({
        rawBody: Buffer.from('{"type":"notification"}'),
        headers: {},
        contentType: 'application/json',
      }),
      WebhookRejectedError,
    );
    const events = await provider.verifyWebhook({
      rawBody: notificationBody('payout.succeeded', { id: 'po-1' }),
      headers: {},
      contentType: 'application/json',
    });
    assert.deepEqual(events, [
      { kind: 'ignored', eventKey: 'payout.succeeded:po-1', reason: 'YooKassa event payout.succeeded needs no action' },
    ]);
  });
});
