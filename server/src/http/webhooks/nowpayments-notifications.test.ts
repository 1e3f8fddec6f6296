import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { Agent } from 'undici';
import {
  startNowPaymentsSimulator,
  type NowPaymentsSimulator,
} from '../../../../simulators/payments/nowpayments/start-nowpayments-simulator.ts';
import { assertLedgerBalanced } from '../../../test/support/assert-ledger-balanced.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../../test/support/test-databases.ts';
import { openDatabase, type DatabaseHandle } from '../../db/database.ts';
import { sumLedgerAccount, userLedgerAccount } from '../../db/ledger.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { findTopUpOrder } from '../../db/top-up-orders.ts';
import { insertUser } from '../../db/users.ts';
import { cryptoIds } from '../../lib/ids.ts';
import { applyPaymentEvent } from '../../payments/apply-payment-event.ts';
import { createNowPaymentsDepositStore } from '../../payments/create-nowpayments-deposit-store.ts';
import { createPaymentHttp } from '../../payments/create-payment-http.ts';
import { createTopUpOrder } from '../../payments/create-top-up-order.ts';
import type { PaymentProvider } from '../../payments/payment-provider.ts';
import { createPaymentProviders } from '../../payments/payment-providers.ts';
import { createNowPaymentsProvider } from '../../payments/providers/nowpayments/nowpayments-provider.ts';
import { writeError } from '../write-error.ts';
import { registerPaymentWebhookRoutes } from './payment-notifications.ts';

const credentials = { apiKey: 'np-test-key', ipnSecret: 'np-test-ipn-secret' };

for (const kind of databaseKinds) {
  describe(`NOWPayments IPNs for USDT orders on ${kind}`, () => {
    let testDatabase: TestDatabase;
    let handle: DatabaseHandle;
    let simulator: NowPaymentsSimulator;
    let provider: PaymentProvider;
    let agent: Agent;
    let app: FastifyInstance;
    let appUrl = '';
    let userNumber = 0;
    const clock = { nowMs: () => Date.now() };
    // The provider needs the app's address for its IPN URL, so it joins the list once the app listens.
    const providers = createPaymentProviders([]);
    const deps = () => ({
      db: handle.db,
      clock,
      ids: cryptoIds,
      fx: {
        markupBasisPoints: 0,
        fixedMicroRoublesPerUsd: 100_000_000,
        maxRateAgeMs: 1,
        cbrUrl: 'http://127.0.0.1:9/',
      },
      paymentProviders: providers,
      topUps: { minimumMinorUnits: { RUB: 20_000, USD: 500 }, orderTtlMs: 3_600_000 },
      topUpReturnUrl: 'https://gateway.example/billing/return',
      onBalancesChanged: async () => undefined,
    });

    before(async () => {
      testDatabase = await createTestDatabase(kind);
      handle = openDatabase(testDatabase.config);
      await migrateToLatest(handle.db);
      simulator = await startNowPaymentsSimulator({ ...credentials, isDuplicatingNotifications: true });
      agent = new Agent();
      app = Fastify();
      app.setErrorHandler((error, request, reply) => writeError(request, reply, error));
      registerPaymentWebhookRoutes(app, deps());
      await app.listen({ host: '127.0.0.1', port: 0 });
      appUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      provider = createNowPaymentsProvider({
        ...credentials,
        apiBaseUrl: simulator.url,
        ipnCallbackUrl: `${appUrl}/webhooks/nowpayments`,
        store: createNowPaymentsDepositStore({ db: handle.db, clock }),
        http: createPaymentHttp({ dispatcher: agent }),
        isSandbox: true,
      });
      providers.add(provider);
    });
    after(async () => {
      await app.close();
      await simulator.close();
      await agent.close();
      await handle.close();
      await testDatabase.drop();
    });

    async function newOrder(cents: number) {
      userNumber += 1;
      const userId = `usr_np_${userNumber}`;
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
