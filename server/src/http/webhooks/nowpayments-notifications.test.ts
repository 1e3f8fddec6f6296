import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  startNowPaymentsSimulator,
  type NowPaymentsSimulator,
} from '../../../../simulators/payments/nowpayments/start-nowpayments-simulator.ts';
import { assertLedgerBalanced } from '../../../test/support/assert-ledger-balanced.ts';
import { databaseKinds } from '../../../test/support/test-databases.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import { findTopUpOrder } from '../../db/top-up-orders.ts';
import { applyPaymentEvent } from '../../payments/apply-payment-event.ts';
import type { PaymentProvider } from '../../payments/payment-provider.ts';
import { createPaymentProviders } from '../../payments/payment-providers.ts';
import {
  createSimulatedNowPayments,
  openUsdtOrderFixture,
  type UsdtOrderFixture,
} from '../../payments/test-support/open-usdt-order-fixture.ts';
import { writeError } from '../write-error.ts';
import { registerPaymentWebhookRoutes } from './payment-notifications.ts';

const credentials = { apiKey: 'np-test-key', ipnSecret: 'np-test-ipn-secret' };

for (const kind of databaseKinds) {
  describe(`NOWPayments IPNs for USDT orders on ${kind}`, () => {
    let fixture: UsdtOrderFixture;
    let handle: DatabaseHandle;
    let simulator: NowPaymentsSimulator;
    let provider: PaymentProvider;
    let app: FastifyInstance;
    let appUrl = '';
    const clock = { nowMs: () => Date.now() };
    // The provider needs the app's address for its IPN URL, so it joins the list once the app listens.
    const providers = createPaymentProviders([]);
    const deps = () => fixture.deps;

    before(async () => {
      fixture = await openUsdtOrderFixture({ kind, clock, paymentProviders: providers, userPrefix: 'np' });
      handle = fixture.handle;
      simulator = await startNowPaymentsSimulator({ ...credentials, isDuplicatingNotifications: true });
      app = Fastify();
      app.setErrorHandler((error, request, reply) => writeError(request, reply, error));
      registerPaymentWebhookRoutes(app, deps());
      await app.listen({ host: '127.0.0.1', port: 0 });
      appUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const ipnCallbackUrl = `${appUrl}/webhooks/nowpayments`;
      provider = createSimulatedNowPayments(fixture, { simulator, credentials, ipnCallbackUrl, clock });
      providers.add(provider);
    });
    after(async () => {
      await app.close();
      await simulator.close();
      await fixture.close();
    });

    async function newOrder(cents: number) {
      const { userId, order } = await fixture.newOrder(cents);
      return { userId, orderId: order.id, paymentId: order.provider_payment_id ?? '' };
    }
    const balanceOf = (userId: string) => fixture.balanceOf(userId);

    test('partially paid then finished, every IPN delivered twice: the USDT received is credited once in all', async () => {
      const order = await newOrder(1000);
      simulator.pay(order.paymentId, '4');
      await simulator.whenNotificationsSettled();
      assert.equal((await findTopUpOrder(handle.db, order.orderId))?.status, 'partially_paid');
      assert.equal(await balanceOf(order.userId), 4_000_000);
      simulator.pay(order.paymentId, '6');
      await simulator.whenNotificationsSettled();
      assert.equal((await findTopUpOrder(handle.db, order.orderId))?.status, 'succeeded');
      assert.equal(await balanceOf(order.userId), 10_000_000);
      await assertLedgerBalanced(handle.db);
    });

    test('a replayed IPN, a forged one and one whose body claims more than the API says credit nothing more', async () => {
      const order = await newOrder(1000);
      simulator.pay(order.paymentId, '10');
      await simulator.whenNotificationsSettled();
      const genuine = simulator.notificationAttempts().find((attempt) => attempt.body.includes(order.paymentId));
      assert.ok(genuine);
      const signature = createHmac('sha512', credentials.ipnSecret)
        .update(JSON.stringify(sortKeys(JSON.parse(genuine.body))))
        .digest('hex');
      const replay = await fetch(`${appUrl}/webhooks/nowpayments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-nowpayments-sig': signature },
        body: genuine.body,
      });
      assert.equal(replay.status, 200);
      const before = simulator.notificationAttempts().length;
      simulator.sendIpn(order.paymentId, { signingSecret: 'not-the-secret' });
      simulator.sendIpn(order.paymentId, { override: { actually_paid: 500, payment_status: 'finished' } });
      await simulator.whenNotificationsSettled();
      const statuses = simulator
        .notificationAttempts()
        .slice(before)
        .map((attempt) => attempt.status);
      assert.ok(statuses.includes(400), `the forged IPN is refused (${statuses.join(', ')})`);
      assert.equal(await balanceOf(order.userId), 10_000_000);
      await assertLedgerBalanced(handle.db);
    });

    test('USDT reported in another currency is flagged for the operator and credits nothing', async () => {
      const order = await newOrder(1000);
      const outcome = await applyPaymentEvent(deps(), {
        provider,
        source: 'webhook',
        event: {
          kind: 'received',
          eventKey: `${order.paymentId}:finished:10000000`,
          providerPaymentId: order.paymentId,
          orderId: order.orderId,
          transferKey: `${order.paymentId}:10000000`,
          txId: order.paymentId,
          received: { currency: 'usdterc20', microUnits: 10_000_000, isRunningTotal: true },
          isTest: true,
        },
      });
      assert.equal(outcome.kind, 'flagged');
      assert.match((await findTopUpOrder(handle.db, order.orderId))?.review_reason ?? '', /paid in usdterc20/);
      assert.equal(await balanceOf(order.userId), 0);
      await assertLedgerBalanced(handle.db);
    });
  });
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, sortKeys(record[key])]),
  );
}
