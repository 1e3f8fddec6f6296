import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { assertLedgerBalanced } from '../../../test/support/assert-ledger-balanced.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../../test/support/test-databases.ts';
import {
  createTestPaymentProvider,
  startTestPaymentService,
  type TestPaymentService,
} from '../../../test/support/test-payment-provider.ts';
import { loadApiKeyCache } from '../../accounts/api-key-cache.ts';
import { openDatabase, type DatabaseHandle } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { findUserById, insertUser } from '../../db/users.ts';
import { AuthenticationError } from '../../errors/authentication-error.ts';
import { cryptoIds } from '../../lib/ids.ts';
import { applyPaymentEvent, type PaymentCoreDeps } from '../../payments/apply-payment-event.ts';
import { createPaymentProviders } from '../../payments/payment-providers.ts';
import type { SessionGuard } from '../middleware/session.ts';
import { registerUtf8JsonBodyParser } from '../utf8-json-body-parser.ts';
import { writeError } from '../write-error.ts';
import { createOperatorPaymentHandlers } from './operator-payments.ts';
import { registerHandledEndpoints } from './register-api-endpoints.ts';
import { createTopUpHandlers } from './top-ups.ts';

/** Sessions stand in as a header naming the user; the session middleware has its own tests. */
const headerSessions: SessionGuard = {
  findSession: (request: FastifyRequest) => {
    const userId = request.headers['x-test-user'];
    if (typeof userId !== 'string') return undefined;
    const role = userId.startsWith('usr_admin') ? 'admin' : 'user';
    return { sessionId: 's', userId, role, isUserBlocked: false, csrfToken: 't' };
  },
  requireSession: (request: FastifyRequest) => {
    const session = headerSessions.findSession(request);
    if (!session) throw new AuthenticationError('Sign in first.');
    return session;
  },
};

for (const kind of databaseKinds) {
  describe(`top-up and operator payment API on ${kind}`, () => {
    let testDatabase: TestDatabase;
    let handle: DatabaseHandle;
    let service: TestPaymentService;
    let provider: ReturnType<typeof createTestPaymentProvider>;
    let app: FastifyInstance;
    let coreDeps: PaymentCoreDeps;

    before(async () => {
      testDatabase = await createTestDatabase(kind);
      handle = openDatabase(testDatabase.config);
      await migrateToLatest(handle.db);
      for (const id of ['usr_buyer', 'usr_admin']) {
        await insertUser(handle.db, {
          id,
          email: `${id}@example.com`,
          password_hash: 'x',
          role: 'user',
          created_at: 1,
        });
      }
      service = await startTestPaymentService();
      provider = createTestPaymentProvider({ service });
      const deps = {
        db: handle.db,
        clock: { nowMs: () => 1_700_000_000_000 },
        ids: cryptoIds,
        fx: { markupBasisPoints: 300, fixedMicroRoublesPerUsd: undefined, maxRateAgeMs: 86_400_000, cbrUrl: 'x' },
        paymentProviders: createPaymentProviders([provider]),
        topUps: { minimumMinorUnits: { RUB: 20_000, USD: 500 }, orderTtlMs: 3_600_000 },
        topUpReturnUrl: 'https://gateway.example/billing/return',
        webhookBaseUrl: 'https://gateway.example/webhooks',
        onBalancesChanged: async () => undefined,
        // Outside sandbox mode the sandbox-transfer route answers 404 before any HTTP call.
        paymentHttp: async () => {
          throw new Error('no payment HTTP call is expected here');
        },
        isPaymentSandbox: false,
        tronExplorerTxUrl: 'https://tronscan.org/#/transaction/',
        sandboxSimulators: { tronGrid: undefined, nowPayments: undefined },
      };
      await handle.db
        .insertInto('fx_rates')
        .values({
          currency: 'RUB',
          rate_date: '2026-11-26',
          micros_per_usd: 92_282_100,
          source: 'cbr',
          fetched_at: 1_700_000_000_000,
        })
        .execute();
      coreDeps = deps;
      app = Fastify();
      app.setErrorHandler((error, request, reply) => writeError(request, reply, error));
      registerUtf8JsonBodyParser(app);
      registerHandledEndpoints(
        app,
        { sessions: headerSessions, clock: deps.clock, apiKeyCache: await loadApiKeyCache(handle.db) },
        { ...createTopUpHandlers(deps), ...createOperatorPaymentHandlers(deps) },
      );
      await app.ready();
    });
    after(async () => {
      await app.close();
      await provider.close();
      await service.close();
      await handle.close();
      await testDatabase.drop();
    });

    const call = (user: string, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
      app.inject({ method, url, headers: { 'x-test-user': user }, ...(payload === undefined ? {} : { payload }) });
    const thousandRoubles = { method: 'card_rub', currency: 'RUB', amount_minor: 100_000 };

    test('the method list names only the methods a running provider serves', async () => {
      const answer = await call('usr_buyer', 'GET', '/api/top-ups/methods');
      assert.equal(answer.statusCode, 200, answer.body);
      assert.deepEqual(answer.json(), {
        data: [
          { method: 'card_rub', provider: 'yookassa', is_sandbox: true },
          { method: 'sbp', provider: 'yookassa', is_sandbox: true },
        ],
      });
    });

    test('outside payment sandbox mode there is no sandbox transfer (404)', async () => {
      const answer = await call('usr_buyer', 'POST', '/api/top-ups/tpo_any/sandbox-transfer', {
        action: 'send_exact',
      });
      assert.equal(answer.statusCode, 404, answer.body);
      assert.match(answer.body, /only in payment sandbox mode/);
    });

    test('the quote shows what the user pays and what the balance gets', async () => {
      const answer = await call('usr_buyer', 'POST', '/api/top-ups/quote', thousandRoubles);
      assert.equal(answer.statusCode, 200);
      const quote = answer.json<Record<string, unknown>>();
      assert.equal(quote.credit_micros, 10_520_716);
      assert.equal(quote.rate, '95.050563');
      assert.equal(quote.rate_source, 'cbr:2026-11-26');
      assert.equal(quote.summary, 'You pay 1,000.00 RUB, your balance gets 10.52 USD (sandbox: no real money moves).');
    });

    test('an amount under the minimum is a 400 naming the field', async () => {
      const answer = await call('usr_buyer', 'POST', '/api/top-ups/quote', {
        ...thousandRoubles,
        amount_minor: 19_999,
      });
      assert.equal(answer.statusCode, 400);
      const { error } = answer.json<{ error: Record<string, unknown> }>();
      assert.equal(error.code, 'below_minimum');
      assert.equal(error.param, 'amount');
      assert.match(String(error.message), /200\.00 RUB/);
    });

    test('a top-up is created, and polling it after payment credits the balance once', async () => {
      const created = await call('usr_buyer', 'POST', '/api/top-ups', thousandRoubles);
      assert.equal(created.statusCode, 201);
      const { order } = created.json<{ order: { id: string; status: string; confirmation_url: string } }>();
      assert.equal(order.status, 'pending');
      assert.match(order.confirmation_url, /^https:\/\/pay\.example\//);
      const payment = [...service.payments.values()].find((candidate) => candidate.orderId === order.id);
      assert.ok(payment);
      payment.status = 'succeeded';
      const polls = await Promise.all([1, 2, 3].map(() => call('usr_buyer', 'GET', `/api/top-ups/${order.id}`)));
      assert.deepEqual(
        polls.map((poll) => poll.json<{ status: string }>().status),
        ['succeeded', 'succeeded', 'succeeded'],
      );
      assert.equal((await findUserById(handle.db, 'usr_buyer'))?.balance_micros, 10_520_716);
      const list = await call('usr_buyer', 'GET', '/api/top-ups');
      assert.equal(list.json<{ data: unknown[] }>().data.length, 1);
      assert.equal((await call('usr_admin', 'GET', `/api/top-ups/${order.id}`)).statusCode, 404);
    });

    test('the operator refunds through the provider once, even when the provider then notifies the refund', async () => {
      assert.equal((await call('usr_buyer', 'GET', '/api/operator/payments')).statusCode, 403);
      const listed = await call('usr_admin', 'GET', '/api/operator/payments?status=succeeded&user_id=usr_buyer');
      const [payment] = listed.json<{ data: { id: string }[] }>().data;
      assert.ok(payment);
      const none = await call('usr_admin', 'GET', '/api/operator/payments?provider=stripe');
      assert.deepEqual(none.json<{ data: unknown[] }>().data, []);
      const refund = { amount_minor: 50_000, reason: 'customer asked', idempotency_key: 'r1' };
      const refunded = await call('usr_admin', 'POST', `/api/operator/payments/${payment.id}/refund`, refund);
      assert.equal(refunded.statusCode, 200);
      assert.equal(refunded.json<{ status: string }>().status, 'partially_refunded');
      assert.equal((await findUserById(handle.db, 'usr_buyer'))?.balance_micros, 10_520_716 - 5_260_358);
      const notification = await applyPaymentEvent(coreDeps, {
        provider,
        event: {
          kind: 'refunded',
          eventKey: 'provider-event-for-the-same-refund',
          providerPaymentId: refunded.json<{ provider_payment_id: string }>().provider_payment_id,
          orderId: payment.id,
          amount: { currency: 'RUB', minorUnits: 50_000 },
          isTest: true,
        },
        source: 'webhook',
      });
      assert.equal(notification.kind, 'repeated');
      assert.equal((await findUserById(handle.db, 'usr_buyer'))?.balance_micros, 10_520_716 - 5_260_358);
      const tooMuch = await call('usr_admin', 'POST', `/api/operator/payments/${payment.id}/refund`, {
        amount_minor: 50_001,
        reason: 'again',
      });
      assert.equal(tooMuch.statusCode, 400);
      await assertLedgerBalanced(handle.db);
    });

    test('the operator sees the webhook URL to register for each running provider; a customer does not', async () => {
      assert.equal((await call('usr_buyer', 'GET', '/api/operator/payment-webhooks')).statusCode, 403);
      const answer = await call('usr_admin', 'GET', '/api/operator/payment-webhooks');
      assert.equal(answer.statusCode, 200);
      assert.deepEqual(answer.json(), {
        data: [
          {
            provider: provider.id,
            url: `https://gateway.example/webhooks/${provider.id}`,
            methods: [...provider.methods],
            is_sandbox: provider.isSandbox,
          },
        ],
      });
    });

    test('marking paid by hand needs a reason, credits once and records it', async () => {
      const created = await call('usr_buyer', 'POST', '/api/top-ups', thousandRoubles);
      const { order } = created.json<{ order: { id: string } }>();
      const before = (await findUserById(handle.db, 'usr_buyer'))?.balance_micros ?? 0;
      const noReason = await call('usr_admin', 'POST', `/api/operator/payments/${order.id}/mark-paid`, {});
      assert.equal(noReason.statusCode, 400);
      const marked = await call('usr_admin', 'POST', `/api/operator/payments/${order.id}/mark-paid`, {
        reason: 'found in the YooKassa dashboard',
      });
      assert.equal(marked.statusCode, 200);
      const view = marked.json<{ status: string; transitions: { cause: string }[] }>();
      assert.equal(view.status, 'succeeded');
      assert.match(view.transitions.at(-1)?.cause ?? '', /found in the YooKassa dashboard/);
      assert.equal((await findUserById(handle.db, 'usr_buyer'))?.balance_micros, before + 10_520_716);
      const again = await call('usr_admin', 'POST', `/api/operator/payments/${order.id}/mark-paid`, {
        reason: 'twice',
      });
      assert.equal(again.statusCode, 409);
      const payment = [...service.payments.values()].find((candidate) => candidate.orderId === order.id);
      assert.ok(payment);
      payment.status = 'succeeded';
      await call('usr_buyer', 'GET', `/api/top-ups/${order.id}`);
      assert.equal((await findUserById(handle.db, 'usr_buyer'))?.balance_micros, before + 10_520_716);
      await assertLedgerBalanced(handle.db);
    });
  });
}
