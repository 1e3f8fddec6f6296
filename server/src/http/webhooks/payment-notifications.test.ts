import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { assertLedgerBalanced } from '../../../test/support/assert-ledger-balanced.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../../test/support/test-databases.ts';
import {
  createTestPaymentProvider,
  startTestPaymentService,
  type TestPaymentService,
} from '../../../test/support/test-payment-provider.ts';
import { openDatabase, type DatabaseHandle } from '../../db/database.ts';
import { sumLedgerAccount, userLedgerAccount } from '../../db/ledger.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { findTopUpOrder } from '../../db/top-up-orders.ts';
import { insertUser } from '../../db/users.ts';
import { cryptoIds } from '../../lib/ids.ts';
import { createTopUpOrder } from '../../payments/create-top-up-order.ts';
import { createPaymentProviders } from '../../payments/payment-providers.ts';
import { registerUtf8JsonBodyParser } from '../utf8-json-body-parser.ts';
import { writeError } from '../write-error.ts';
import { registerPaymentWebhookRoutes } from './payment-notifications.ts';

for (const kind of databaseKinds) {
  describe(`POST /webhooks/:provider on ${kind}`, () => {
    let testDatabase: TestDatabase;
    let handle: DatabaseHandle;
    let service: TestPaymentService;
    let provider: ReturnType<typeof createTestPaymentProvider>;
    let app: FastifyInstance;
    const userId = 'usr_webhook';
    const orderDeps = () => ({
      db: handle.db,
      clock: { nowMs: () => 1_700_000_000_000 },
      ids: cryptoIds,
      fx: {
        markupBasisPoints: 0,
        fixedMicroRoublesPerUsd: 100_000_000,
        maxRateAgeMs: 1,
        cbrUrl: 'http://127.0.0.1:9/',
      },
      paymentProviders: createPaymentProviders([provider]),
      topUps: { minimumMinorUnits: { RUB: 20_000, USD: 500 }, orderTtlMs: 3_600_000 },
      topUpReturnUrl: 'https://gateway.example/billing/return',
      onBalancesChanged: async () => undefined,
    });

    before(async () => {
      testDatabase = await createTestDatabase(kind);
      handle = openDatabase(testDatabase.config);
      await migrateToLatest(handle.db);
      await insertUser(handle.db, {
        id: userId,
        email: 'w@example.com',
        password_hash: 'x',
        role: 'user',
        created_at: 1,
      });
      service = await startTestPaymentService();
      provider = createTestPaymentProvider({ service });
      app = Fastify();
      app.setErrorHandler((error, request, reply) => writeError(request, reply, error));
      registerUtf8JsonBodyParser(app);
      registerPaymentWebhookRoutes(app, orderDeps());
      await app.ready();
    });
    after(async () => {
      await app.close();
      await provider.close();
      await service.close();
      await handle.close();
      await testDatabase.drop();
    });

    async function paidOrder() {
      const { order } = await createTopUpOrder(orderDeps(), {
        userId,
        customerEmail: 'w@example.com',
        method: 'sbp',
        amount: { currency: 'RUB', minorUnits: 50_000 },
      });
      const payment = service.payments.get(order.provider_payment_id ?? '');
      assert.ok(payment);
      payment.status = 'succeeded';
      return { order, payment };
    }

    const post = (delivery: ReturnType<TestPaymentService['delivery']>, path = '/webhooks/yookassa') =>
      app.inject({ method: 'POST', url: path, headers: delivery.headers, payload: delivery.rawBody });
    const balance = () => sumLedgerAccount(handle.db, userLedgerAccount(userId));

    test('a forged signature is answered with the rejection and credits nothing', async () => {
      const { payment } = await paidOrder();
      const before = await balance();
      const forged = service.delivery(
        { event_id: 'e_forged', type: 'payment.succeeded', payment_id: payment.id },
        { secret: 'not-the-secret' },
      );
      const answer = await post(forged);
      assert.equal(answer.statusCode, 400);
      assert.equal(answer.body, 'rejected');
      assert.equal(await balance(), before);
    });

    test('50 deliveries of one notification at once: every answer 200, one credit', async () => {
      const { order, payment } = await paidOrder();
      const before = await balance();
      const delivery = service.delivery({
        event_id: `e_${payment.id}`,
        type: 'payment.succeeded',
        payment_id: payment.id,
      });
      const answers = await Promise.all(Array.from({ length: 50 }, () => post(delivery)));
      assert.deepEqual(new Set(answers.map((answer) => answer.statusCode)), new Set([200]));
      assert.equal(await balance(), before + 5_000_000);
      assert.equal((await findTopUpOrder(handle.db, order.id))?.status, 'succeeded');
      const replayed = await post(delivery);
      assert.equal(replayed.statusCode, 200);
      assert.equal(await balance(), before + 5_000_000);
      await assertLedgerBalanced(handle.db);
    });

    test('a notification whose re-fetch disagrees is rejected and credits nothing', async () => {
      const { payment } = await paidOrder();
      payment.status = 'pending';
      const before = await balance();
      const answer = await post(
        service.delivery({ event_id: 'e_early', type: 'payment.succeeded', payment_id: payment.id }),
      );
      assert.equal(answer.statusCode, 400);
      assert.equal(await balance(), before);
    });

    test('a payment for no order of ours is not accepted, so the provider keeps it for later', async () => {
      service.payments.set('pay_stranger', {
        id: 'pay_stranger',
        orderId: 'tpo_stranger',
        status: 'succeeded',
        amount: { currency: 'RUB', minorUnits: 50_000 },
        refundedMinorUnits: 0,
        isTest: true,
      });
      const before = await balance();
      const answer = await post(
        service.delivery({ event_id: 'e_stranger', type: 'payment.succeeded', payment_id: 'pay_stranger' }),
      );
      assert.equal(answer.statusCode, 400);
      assert.equal(await balance(), before);
    });

    test('an event type the core does not act on is acknowledged', async () => {
      const answer = await post(service.delivery({ event_id: 'e_other', type: 'payout.succeeded', payment_id: 'x' }));
      assert.equal(answer.statusCode, 200);
    });

    test('an unknown provider is a 404 in the API error shape', async () => {
      const answer = await post(
        service.delivery({ event_id: 'e', type: 'payment.succeeded', payment_id: 'x' }),
        '/webhooks/nobody',
      );
      assert.equal(answer.statusCode, 404);
      assert.equal((answer.json() as { error: { type: string } }).error.type, 'invalid_request_error');
    });
  });
}
