import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Agent } from 'undici';
import {
  startNowPaymentsSimulator,
  type NowPaymentsSimulator,
} from '../../../simulators/payments/nowpayments/start-nowpayments-simulator.ts';
import { assertLedgerBalanced } from '../../test/support/assert-ledger-balanced.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../test/support/test-databases.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { sumLedgerAccount, userLedgerAccount } from '../db/ledger.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { findTopUpOrder } from '../db/top-up-orders.ts';
import { insertUser } from '../db/users.ts';
import { cryptoIds } from '../lib/ids.ts';
import { createNowPaymentsDepositStore } from './create-nowpayments-deposit-store.ts';
import { createPaymentHttp } from './create-payment-http.ts';
import { createTopUpOrder } from './create-top-up-order.ts';
import { createPaymentProviders } from './payment-providers.ts';
import { createNowPaymentsProvider } from './providers/nowpayments/nowpayments-provider.ts';
import { reconcileTopUpOrders } from './reconcile-top-up-orders.ts';

const credentials = { apiKey: 'np-reconcile-key', ipnSecret: 'np-reconcile-ipn-secret' };
/** Nothing listens on the discard port on loopback: every IPN the simulator sends is lost. */
const lostIpnUrl = 'http://127.0.0.1:9/webhooks/nowpayments';

for (const kind of databaseKinds) {
  describe(`NOWPayments reconciliation recovers lost IPNs on ${kind}`, () => {
    let testDatabase: TestDatabase;
    let handle: DatabaseHandle;
    let simulator: NowPaymentsSimulator;
    let agent: Agent;
    let userNumber = 0;
    const clock = { nowMs: () => Date.now() };
    const providers = createPaymentProviders([]);
    const errors: string[] = [];
    const deps = () => ({
      db: handle.db,
      clock,
      ids: cryptoIds,
      fx: { markupBasisPoints: 0, fixedMicroRoublesPerUsd: 100_000_000, maxRateAgeMs: 1, cbrUrl: lostIpnUrl },
      paymentProviders: providers,
      topUps: { minimumMinorUnits: { RUB: 20_000, USD: 500 }, orderTtlMs: 3_600_000 },
      topUpReturnUrl: 'https://gateway.example/billing/return',
      onBalancesChanged: async () => undefined,
      onOrderError: (orderId: string, error: unknown) => errors.push(`${orderId}: ${String(error)}`),
    });

    before(async () => {
      testDatabase = await createTestDatabase(kind);
      handle = openDatabase(testDatabase.config);
      await migrateToLatest(handle.db);
      simulator = await startNowPaymentsSimulator({ ...credentials, retryDelaysMs: [10] });
      agent = new Agent();
      providers.add(
        createNowPaymentsProvider({
          ...credentials,
          apiBaseUrl: simulator.url,
          ipnCallbackUrl: lostIpnUrl,
          store: createNowPaymentsDepositStore({ db: handle.db, clock }),
          http: createPaymentHttp({ dispatcher: agent }),
          isSandbox: true,
        }),
      );
    });
    after(async () => {
      await simulator.close();
      await agent.close();
      await handle.close();
      await testDatabase.drop();
    });

    async function newOrder(cents: number) {
      userNumber += 1;
      const userId = `usr_np_lost_${userNumber}`;
      await insertUser(handle.db, {
        id: userId,
        email: `${userId}@example.com`,
        password_hash: 'x',
        role: 'user',
        created_at: 1,
      });
      const { order } = await createTopUpOrder(deps(), {
        userId,
        customerEmail: `${userId}@example.com`,
        method: 'usdt_trc20',
        amount: { currency: 'USD', minorUnits: cents },
      });
      return { userId, orderId: order.id, paymentId: order.provider_payment_id ?? '' };
    }
    const balanceOf = (userId: string) => sumLedgerAccount(handle.db, userLedgerAccount(userId));
    const statusOf = async (orderId: string) => (await findTopUpOrder(handle.db, orderId))?.status;

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
