import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  startNowPaymentsSimulator,
  type NowPaymentsSimulator,
} from '../../../simulators/payments/nowpayments/start-nowpayments-simulator.ts';
import { assertLedgerBalanced } from '../../test/support/assert-ledger-balanced.ts';
import { databaseKinds } from '../../test/support/test-databases.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { createPaymentProviders } from './payment-providers.ts';
import { reconcileTopUpOrders } from './reconcile-top-up-orders.ts';
import {
  createSimulatedNowPayments,
  openUsdtOrderFixture,
  type UsdtOrderFixture,
} from './test-support/open-usdt-order-fixture.ts';

const credentials = { apiKey: 'np-reconcile-key', ipnSecret: 'np-reconcile-ipn-secret' };
/** Nothing listens on the discard port on loopback: every IPN the simulator sends is lost. */
const lostIpnUrl = 'http://127.0.0.1:9/webhooks/nowpayments';

for (const kind of databaseKinds) {
  describe(`NOWPayments reconciliation recovers lost IPNs on ${kind}`, () => {
    let fixture: UsdtOrderFixture;
    let handle: DatabaseHandle;
    let simulator: NowPaymentsSimulator;
    const clock = { nowMs: () => Date.now() };
    const providers = createPaymentProviders([]);
    const errors: string[] = [];
    const deps = () => ({
      ...fixture.deps,
      onOrderError: (orderId: string, error: unknown) => errors.push(`${orderId}: ${String(error)}`),
    });

    before(async () => {
      fixture = await openUsdtOrderFixture({ kind, clock, paymentProviders: providers, userPrefix: 'np_lost' });
      handle = fixture.handle;
      simulator = await startNowPaymentsSimulator({ ...credentials, retryDelaysMs: [10] });
      providers.add(createSimulatedNowPayments(fixture, { simulator, credentials, ipnCallbackUrl: lostIpnUrl, clock }));
    });
    after(async () => {
      await simulator.close();
      await fixture.close();
    });

    async function newOrder(cents: number) {
      const { userId, order } = await fixture.newOrder(cents);
      return { userId, orderId: order.id, paymentId: order.provider_payment_id ?? '' };
    }
    const balanceOf = (userId: string) => fixture.balanceOf(userId);
    const statusOf = (orderId: string) => fixture.statusOf(orderId);

    test('a payment whose IPNs never arrive is credited by reconciliation, once, even with two passes at once', async () => {
      const order = await newOrder(1000);
      simulator.pay(order.paymentId, '10');
      await simulator.whenNotificationsSettled();
      const attempts = simulator.notificationAttempts();
      assert.ok(attempts.length >= 2, 'the IPN was sent, retried and lost');
      assert.ok(
        attempts.every((attempt) => attempt.status === undefined),
        'no delivery ever got an answer',
      );
      assert.equal(await statusOf(order.orderId), 'pending', 'nothing credited without the IPN');
      await Promise.all([reconcileTopUpOrders(deps()), reconcileTopUpOrders(deps())]);
      assert.equal(await statusOf(order.orderId), 'succeeded');
      assert.equal(await balanceOf(order.userId), 10_000_000);
      await reconcileTopUpOrders(deps());
      assert.equal(await balanceOf(order.userId), 10_000_000, 'a later pass credits nothing more');
      assert.deepEqual(errors, []);
      await assertLedgerBalanced(handle.db);
    });

    test('a partly paid order whose final IPN is lost is completed by reconciliation, each part once', async () => {
      const order = await newOrder(2000);
      simulator.pay(order.paymentId, '5');
      await simulator.whenNotificationsSettled();
      await reconcileTopUpOrders(deps());
      assert.equal(await statusOf(order.orderId), 'partially_paid');
      assert.equal(await balanceOf(order.userId), 5_000_000);
      simulator.pay(order.paymentId, '15');
      await simulator.whenNotificationsSettled();
      await reconcileTopUpOrders(deps());
      await reconcileTopUpOrders(deps());
      assert.equal(await statusOf(order.orderId), 'succeeded');
      assert.equal(await balanceOf(order.userId), 20_000_000);
      assert.deepEqual(errors, []);
      await assertLedgerBalanced(handle.db);
    });
  });
}
