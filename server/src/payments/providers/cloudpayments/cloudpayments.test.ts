import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startCloudPaymentsSimulator } from '../../../../../simulators/payments/cloudpayments/start-cloudpayments-simulator.ts';
import type { CloudPaymentsSimulator } from '../../../../../simulators/payments/cloudpayments/start-cloudpayments-simulator.ts';
import type { CreatePaymentInput, PaymentEvent, PaymentProvider } from '../../payment-provider.ts';
import { WebhookRejectedError } from '../../payment-provider.ts';
import { requestBuffered } from '../../../upstream/request-buffered.ts';
import { acceptedEvents, startWebhookReceiver } from '../test-support/start-webhook-receiver.ts';
import { createCloudPaymentsProvider } from './cloudpayments-provider.ts';

const apiSecret = 'cp_api_secret';
const clock = { nowMs: () => Date.now() };

function orderInput(orderId: string, kopecks: number): CreatePaymentInput {
  return {
    orderId,
    userId: 'user-1',
    method: 'card_rub',
    amount: { currency: 'RUB', minorUnits: kopecks },
    description: 'Balance top-up',
    customerEmail: 'payer@example.com',
    returnUrl: `http://127.0.0.1:9/billing/return?order=${orderId}`,
  };
}

for (const notificationFormat of ['form', 'json'] as const) {
  describe(`CloudPayments client against the CloudPayments simulator (${notificationFormat} notifications)`, () => {
    let simulator: CloudPaymentsSimulator;
    let provider: PaymentProvider;
    let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
    const eventsOf = (orderId: string): PaymentEvent[] =>
      acceptedEvents(receiver.received).filter((event) =>
        'payment' in event ? event.payment.orderId === orderId : 'orderId' in event && event.orderId === orderId,
      );

    before(async () => {
      receiver = await startWebhookReceiver({ providerId: 'cloudpayments', getProvider: () => provider });
      simulator = await startCloudPaymentsSimulator({
        notificationUrl: receiver.url,
        publicId: 'pk_test',
        apiSecret,
        notificationFormat,
        retryDelaysMs: [20, 20],
      });
      provider = createCloudPaymentsProvider({
        publicId: 'pk_test',
        apiSecret,
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

    it('creates an order link, is paid, and the signed Pay notification becomes a succeeded event with the exact amount', async () => {
      const created = await provider.createPayment(orderInput('order-paid', 123456));
      assert.equal(created.providerPaymentId, 'order-paid');
      assert.match(await fetch(created.confirmationUrl).then((answer) => answer.text()), /1234\.56 RUB/);
      assert.equal((await fetch(`${created.confirmationUrl}/pay`, { method: 'POST', redirect: 'manual' })).status, 303);
      await simulator.whenNotificationsSettled();
      const [event] = eventsOf('order-paid');
      assert.equal(event?.kind, 'succeeded');
      assert.deepEqual(event.kind === 'succeeded' ? { ...event.payment } : undefined, {
        providerPaymentId: 'order-paid',
        orderId: 'order-paid',
        status: 'succeeded',
        amount: { currency: 'RUB', minorUnits: 123456 },
        refundedMinorUnits: 0,
        isTest: true,
        cancellationReason: undefined,
      });
      assert.match(event.eventKey, /^\d+:succeeded$/);
      assert.deepEqual(await provider.fetchPayment('order-paid'), { ...event.payment, cancellationReason: undefined });
      const again = await provider.createPayment(orderInput('order-paid', 123456));
      assert.equal(again.confirmationUrl, created.confirmationUrl);
    });

    it('reports a declined payment (Fail) as canceled with the reason, and answers {"code":0}', async () => {
      await provider.createPayment(orderInput('order-declined', 20000));
      simulator.decline('order-declined');
      await simulator.whenNotificationsSettled();
      const events = eventsOf('order-declined');
      assert.deepEqual(
        events.map((event) => [event.kind, event.kind === 'canceled' ? event.payment.cancellationReason : '']),
        [['canceled', 'InsufficientFunds']],
      );
      assert.equal((await provider.fetchPayment('order-declined')).status, 'canceled');
      assert.deepEqual(provider.replyToWebhook({ isAccepted: true }), {
        status: 200,
        contentType: 'application/json',
        body: '{"code":0}',
      });
    });

    it('refunds part of a payment once per idempotency key and emits the refund amount', async () => {
      await provider.createPayment(orderInput('order-refund', 50000));
      simulator.pay('order-refund');
      await simulator.whenNotificationsSettled();
      const first = await provider.refundPayment({
        providerPaymentId: 'order-refund',
        amount: { currency: 'RUB', minorUnits: 12345 },
        idempotencyKey: 'refund-1',
      });
      const repeated = await provider.refundPayment({
        providerPaymentId: 'order-refund',
        amount: { currency: 'RUB', minorUnits: 12345 },
        idempotencyKey: 'refund-1',
      });
      assert.equal(repeated.refundId, first.refundId);
      await simulator.whenNotificationsSettled();
      const refunds = eventsOf('order-refund').filter((event) => event.kind === 'refunded');
      assert.deepEqual(refunds, [
        {
          kind: 'refunded',
          eventKey: `${first.refundId}:refunded`,
          providerPaymentId: 'order-refund',
          orderId: 'order-refund',
          amount: { currency: 'RUB', minorUnits: 12345 },
          isTest: true,
        },
      ]);
    });

    it('accepts a Refund delivered before its Pay, and a duplicate delivery keeps its event key', async () => {
      await provider.createPayment(orderInput('order-ooo', 30000));
      simulator.holdNotifications();
      simulator.pay('order-ooo');
      await provider.refundPayment({
        providerPaymentId: 'order-ooo',
        amount: { currency: 'RUB', minorUnits: 30000 },
        idempotencyKey: 'refund-ooo',
      });
      simulator.releaseNotifications({ isReversed: true });
      await simulator.whenNotificationsSettled();
      assert.deepEqual(
        eventsOf('order-ooo').map((event) => event.kind),
        ['refunded', 'succeeded'],
      );
      const attempt = simulator
        .notificationAttempts()
        .find((entry) => entry.body.includes('order-ooo') && !entry.body.includes('Refund'));
      const pay = attempt?.body ?? '';
      const contentType = notificationFormat === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
      const hmac = createHmac('sha256', apiSecret).update(pay).digest('base64');
      const [first] = await provider.verifyWebhook({
        rawBody: Buffer.from(pay),
        headers: { 'content-hmac': hmac },
        contentType,
      });
      const [second] = await provider.verifyWebhook({
        rawBody: Buffer.from(pay),
        headers: { 'content-hmac': hmac },
        contentType,
      });
      assert.equal(first?.kind, 'succeeded');
      assert.equal(second?.eventKey, first?.eventKey);
    });

    it('rejects a forged, a modified and an unsigned notification', async () => {
      const fields = {
        TransactionId: 1,
        Amount: 200,
        Currency: 'RUB',
        InvoiceId: 'order-forged',
        Status: 'Completed',
        OperationType: 'Payment',
        TestMode: true,
      };
      simulator.sendNotification(fields, { signingSecret: 'not-the-secret' });
      await simulator.whenNotificationsSettled();
      assert.equal(receiver.received.at(-1)?.outcome, 'rejected');
      const body = Buffer.from('TransactionId=1&Amount=200.00&InvoiceId=order-forged&Status=Completed');
      const hmac = createHmac('sha256', apiSecret).update(body).digest('base64');
      const verify = (rawBody: Buffer, headers: Record<string, string>) =>
        provider.verifyWebhook({ rawBody, headers, contentType: 'application/x-www-form-urlencoded' });
      await assert.rejects(
        verify(Buffer.from(body.toString().replace('200.00', '90000.00')), { 'content-hmac': hmac }),
        WebhookRejectedError,
      );
      await assert.rejects(verify(body, {}), /Content-HMAC/);
      assert.equal((await verify(body, { 'content-hmac': hmac }))[0]?.kind, 'succeeded');
      const spaced = Buffer.from(
        'TransactionId=2&Amount=200.00&InvoiceId=order-forged&Status=Completed&Email=a+b%40example.com',
      );
      const decodedHmac = createHmac('sha256', apiSecret)
        .update('TransactionId=2&Amount=200.00&InvoiceId=order-forged&Status=Completed&Email=a b@example.com')
        .digest('base64');
      assert.equal((await verify(spaced, { 'x-content-hmac': decodedHmac }))[0]?.kind, 'succeeded');
      await assert.rejects(
        verify(Buffer.from('Amount=%E0%A4%A'), { 'x-content-hmac': decodedHmac }),
        WebhookRejectedError,
      );
      assert.ok(eventsOf('order-forged').length === 0);
    });
  });
}
