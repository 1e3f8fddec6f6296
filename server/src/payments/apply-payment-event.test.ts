import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertLedgerBalanced } from '../../test/support/assert-ledger-balanced.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../test/support/test-databases.ts';
import {
  createTestPaymentProvider,
  startTestPaymentService,
  type TestPaymentService,
} from '../../test/support/test-payment-provider.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { sumLedgerAccount, userLedgerAccount } from '../db/ledger.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { findTopUpOrder, listTopUpOrders } from '../db/top-up-orders.ts';
import { listTopUpOrderTransitions } from '../db/top-up-order-transitions.ts';
import { findUserById, insertUser } from '../db/users.ts';
import { cryptoIds } from '../lib/ids.ts';
import { applyPaymentEvent, type PaymentEventOutcome } from './apply-payment-event.ts';
import { createTopUpOrder, type CreateTopUpOrderDeps } from './create-top-up-order.ts';
import { reconcileTopUpOrders } from './reconcile-top-up-orders.ts';
import type { PaymentEvent, PaymentProvider } from './payment-provider.ts';
import { createPaymentProviders } from './payment-providers.ts';

/** 1,000.00 RUB at the fixed 92.2821 RUB/USD, rounded down. */
const creditOfThousandRoubles = 10_836_337;

for (const kind of databaseKinds) {
  describe(`crediting top-ups exactly once on ${kind}`, () => {
    let testDatabase: TestDatabase;
    let handle: DatabaseHandle;
    let service: TestPaymentService;
    let provider: ReturnType<typeof createTestPaymentProvider>;
    let nowMs = 1_700_000_000_000;
    let deps: CreateTopUpOrderDeps & { onBalancesChanged: () => Promise<void> };
    let userNumber = 0;

    before(async () => {
      testDatabase = await createTestDatabase(kind);
      handle = openDatabase(testDatabase.config);
      await migrateToLatest(handle.db);
      service = await startTestPaymentService();
      provider = createTestPaymentProvider({ service });
      deps = depsWith(provider);
    });
    after(async () => {
      await provider.close();
      await service.close();
      await handle.close();
      await testDatabase.drop();
    });

    function depsWith(chosen: PaymentProvider): typeof deps {
      return {
        db: handle.db,
        clock: { nowMs: () => nowMs },
        ids: cryptoIds,
        fx: {
          markupBasisPoints: 0,
          fixedMicroRoublesPerUsd: 92_282_100,
          maxRateAgeMs: 1,
          cbrUrl: 'http://127.0.0.1:9/',
        },
        paymentProviders: createPaymentProviders([chosen]),
        topUps: { minimumMinorUnits: { RUB: 20_000, USD: 500 }, orderTtlMs: 3_600_000 },
        topUpReturnUrl: 'https://gateway.example/billing/return',
        onBalancesChanged: async () => undefined,
      };
    }

    async function newUser(): Promise<string> {
      userNumber += 1;
      const id = `usr_pay_${userNumber}`;
      await insertUser(handle.db, { id, email: `${id}@example.com`, password_hash: 'x', role: 'user', created_at: 1 });
      return id;
    }

    async function newOrder(userId: string, minorUnits = 100_000) {
      const { order } = await createTopUpOrder(deps, {
        userId,
        customerEmail: `${userId}@example.com`,
        method: 'card_rub',
        amount: { currency: 'RUB', minorUnits },
      });
      return order;
    }

    async function successOf(providerPaymentId: string): Promise<PaymentEvent> {
      const stored = service.payments.get(providerPaymentId);
      assert.ok(stored);
      stored.status = 'succeeded';
      return {
        kind: 'succeeded',
        eventKey: `${providerPaymentId}:succeeded`,
        payment: await provider.fetchPayment(providerPaymentId),
      };
    }

    const apply = (event: PaymentEvent, chosen: PaymentProvider = provider): Promise<PaymentEventOutcome> =>
      applyPaymentEvent(deps, { provider: chosen, event, source: 'webhook' });

    async function balanceOf(userId: string): Promise<number> {
      const user = await findUserById(handle.db, userId);
      const entries = await sumLedgerAccount(handle.db, userLedgerAccount(userId));
      assert.equal(user?.balance_micros, entries, 'the balance equals the sum of its entries');
      return entries;
    }

    test('an order locks its quote, gets the payment page and waits as pending', async () => {
      const userId = await newUser();
      const order = await newOrder(userId);
      assert.equal(order.status, 'pending');
      assert.equal(order.credit_micros, creditOfThousandRoubles);
      assert.equal(order.rate_source, 'fixed');
      assert.equal(order.is_sandbox, 1);
      assert.match(order.confirmation_url ?? '', /^https:\/\/pay\.example\/pay_\d+$/);
      const transitions = await listTopUpOrderTransitions(handle.db, order.id);
      assert.deepEqual(
        transitions.map((row) => [row.from_status, row.to_status]),
        [
          [null, 'created'],
          ['created', 'pending'],
        ],
      );
      assert.equal(await balanceOf(userId), 0);
    });

    test('50 identical deliveries at once credit once', async () => {
      const userId = await newUser();
      const order = await newOrder(userId);
      const event = await successOf(order.provider_payment_id ?? '');
      const outcomes = await Promise.all(Array.from({ length: 50 }, () => apply(event)));
      assert.equal(outcomes.filter((outcome) => outcome.kind === 'applied').length, 1);
      assert.equal(outcomes.filter((outcome) => outcome.kind === 'repeated').length, 49);
      assert.equal(await balanceOf(userId), creditOfThousandRoubles);
      assert.equal((await findTopUpOrder(handle.db, order.id))?.status, 'succeeded');
      const again = await apply({ ...event, eventKey: 'another-key-for-the-same-payment' });
      assert.deepEqual(again, { kind: 'repeated', orderId: order.id });
      assert.equal(await balanceOf(userId), creditOfThousandRoubles);
      await assertLedgerBalanced(handle.db);
    });

    test('a notification for an unknown order credits nothing', async () => {
      const before = await sumLedgerAccount(handle.db, 'system:sandbox-top-ups:yookassa');
      const payment = {
        providerPaymentId: 'pay_nobody',
        orderId: 'tpo_nobody',
        status: 'succeeded' as const,
        amount: { currency: 'RUB' as const, minorUnits: 100_000 },
        refundedMinorUnits: 0,
        isTest: true,
        cancellationReason: undefined,
      };
      assert.deepEqual(await apply({ kind: 'succeeded', eventKey: 'pay_nobody:succeeded', payment }), {
        kind: 'unknown_order',
      });
      assert.equal(await sumLedgerAccount(handle.db, 'system:sandbox-top-ups:yookassa'), before);
    });

    test('an amount or currency that does not match the order is flagged, never credited', async () => {
      const userId = await newUser();
      const order = await newOrder(userId);
      const stored = service.payments.get(order.provider_payment_id ?? '');
      assert.ok(stored);
      stored.amount = { currency: 'RUB', minorUnits: 1_000 };
      const outcome = await apply(await successOf(stored.id));
      assert.equal(outcome.kind, 'flagged');
      stored.amount = { currency: 'USD', minorUnits: 100_000 };
      const otherCurrency = await apply({ ...(await successOf(stored.id)), eventKey: 'second' });
      assert.equal(otherCurrency.kind, 'flagged');
      const flagged = await findTopUpOrder(handle.db, order.id);
      assert.equal(flagged?.status, 'pending');
      assert.match(flagged?.review_reason ?? '', /100000 USD/);
      assert.equal(await balanceOf(userId), 0);
    });

    test('a refund before the success credits the payment first, then takes the refund back', async () => {
      const userId = await newUser();
      const order = await newOrder(userId);
      const paymentId = order.provider_payment_id ?? '';
      const success = await successOf(paymentId);
      const refund: PaymentEvent = {
        kind: 'refunded',
        eventKey: 'rf_1',
        providerPaymentId: paymentId,
        orderId: undefined,
        amount: { currency: 'RUB', minorUnits: 25_000 },
        isTest: true,
      };
      const stored = service.payments.get(paymentId);
      assert.ok(stored);
      stored.refundedMinorUnits = 25_000;
      assert.deepEqual(await apply(refund), { kind: 'applied', orderId: order.id, status: 'partially_refunded' });
      assert.equal((await apply({ ...refund, eventKey: 'rf_1_again_under_another_key' })).kind, 'repeated');
      assert.equal(await apply(success).then((outcome) => outcome.kind), 'repeated');
      assert.equal(
        await balanceOf(userId),
        creditOfThousandRoubles - Math.ceil((creditOfThousandRoubles * 25_000) / 100_000),
      );
      stored.refundedMinorUnits = 100_000;
      const rest = { ...refund, eventKey: 'rf_2', amount: { currency: 'RUB' as const, minorUnits: 75_000 } };
      assert.equal((await apply(rest)).kind, 'applied');
      assert.equal(await balanceOf(userId), 0);
      assert.equal((await findTopUpOrder(handle.db, order.id))?.status, 'refunded');
      await assertLedgerBalanced(handle.db);
    });

    test('a refund for a payment that has not succeeded is not taken, so the provider delivers it again', async () => {
      const userId = await newUser();
      const order = await newOrder(userId);
      const refund: PaymentEvent = {
        kind: 'refunded',
        eventKey: 'rf_early',
        providerPaymentId: order.provider_payment_id ?? '',
        orderId: order.id,
        amount: { currency: 'RUB', minorUnits: 100_000 },
        isTest: true,
      };
      const stored = service.payments.get(order.provider_payment_id ?? '');
      assert.ok(stored);
      stored.refundedMinorUnits = 100_000;
      assert.deepEqual(await apply(refund), { kind: 'not_ready', orderId: order.id });
      await apply(await successOf(order.provider_payment_id ?? ''));
      assert.equal((await apply(refund)).kind, 'applied');
      assert.equal(await balanceOf(userId), 0);
    });

    test('a chargeback after spending pushes the balance below zero, and its reversal restores it', async () => {
      const userId = await newUser();
      const order = await newOrder(userId);
      await apply(await successOf(order.provider_payment_id ?? ''));
      await handle.db.transaction().execute(async (trx) => {
        const { writeLedgerTransaction } = await import('../db/ledger.ts');
        await writeLedgerTransaction(trx, {
          id: `ltx_spend_${userId}`,
          idempotencyKey: `spend:${userId}`,
          kind: 'usage',
          reason: 'calls',
          createdAt: nowMs,
          entries: [
            { account: userLedgerAccount(userId), amountMicros: -5_000_000 },
            { account: 'system:usage', amountMicros: 5_000_000 },
          ],
        });
      });
      const dispute = {
        providerPaymentId: order.provider_payment_id ?? '',
        orderId: undefined,
        amount: { currency: 'RUB' as const, minorUnits: 100_000 },
        isTest: true,
      };
      assert.equal((await apply({ kind: 'charged_back', eventKey: 'dp_1', ...dispute })).kind, 'applied');
      assert.equal(await balanceOf(userId), -5_000_000);
      assert.equal((await findTopUpOrder(handle.db, order.id))?.status, 'charged_back');
      assert.equal((await apply({ kind: 'chargeback_reversed', eventKey: 'dp_1:won', ...dispute })).kind, 'applied');
      assert.equal(await balanceOf(userId), creditOfThousandRoubles - 5_000_000);
      assert.equal((await findTopUpOrder(handle.db, order.id))?.status, 'succeeded');
      await assertLedgerBalanced(handle.db);
    });

    test('reconciliation credits a payment whose webhook was lost, once', async () => {
      const userId = await newUser();
      const order = await newOrder(userId);
      await successOf(order.provider_payment_id ?? '');
      const reconcile = () =>
        reconcileTopUpOrders({ ...deps, onOrderError: (id, error) => assert.fail(`${id}: ${String(error)}`) });
      await Promise.all([reconcile(), reconcile()]);
      assert.equal((await findTopUpOrder(handle.db, order.id))?.status, 'succeeded');
      assert.equal(await balanceOf(userId), creditOfThousandRoubles);
      const transitions = await listTopUpOrderTransitions(handle.db, order.id);
      assert.match(transitions.at(-1)?.cause ?? '', /^reconciliation: succeeded/);
    });

    test('an order left unpaid expires; paid late, it is credited and flagged for the operator', async () => {
      const userId = await newUser();
      const order = await newOrder(userId);
      const onOrderError = (id: string, error: unknown) => assert.fail(`${id}: ${String(error)}`);
      await reconcileTopUpOrders({ ...deps, onOrderError });
      assert.equal((await findTopUpOrder(handle.db, order.id))?.status, 'pending');
      nowMs += 3_600_000;
      await reconcileTopUpOrders({ ...deps, onOrderError });
      assert.equal((await findTopUpOrder(handle.db, order.id))?.status, 'expired');
      assert.equal((await apply(await successOf(order.provider_payment_id ?? ''))).kind, 'applied');
      const paid = await findTopUpOrder(handle.db, order.id);
      assert.equal(paid?.status, 'succeeded');
      assert.equal(paid?.is_paid_after_expiry, 1);
      assert.match(paid?.review_reason ?? '', /after the order was expired/);
      assert.equal(await balanceOf(userId), creditOfThousandRoubles);
      assert.deepEqual(
        (await listTopUpOrderTransitions(handle.db, order.id)).map((row) => row.to_status),
        ['created', 'pending', 'expired', 'succeeded'],
      );
    });

    test('a provider that cannot be reached during reconciliation is reported and retried on the next pass', async () => {
      const userId = await newUser();
      const order = await newOrder(userId);
      await successOf(order.provider_payment_id ?? '');
      const failed: string[] = [];
      service.isDown = true;
      try {
        await reconcileTopUpOrders({ ...deps, onOrderError: (id) => failed.push(id) });
      } finally {
        service.isDown = false;
      }
      assert.ok(failed.includes(order.id));
      assert.equal(await balanceOf(userId), 0);
      await reconcileTopUpOrders({ ...deps, onOrderError: (id, error) => assert.fail(`${id}: ${String(error)}`) });
      assert.equal(await balanceOf(userId), creditOfThousandRoubles);
    });

    test('an amount under the minimum is refused before any order or payment exists', async () => {
      const userId = await newUser();
      const paymentsBefore = service.payments.size;
      await assert.rejects(newOrder(userId, 19_999), { status: 400, code: 'below_minimum', param: 'amount' });
      assert.equal(service.payments.size, paymentsBefore);
      assert.deepEqual(await listTopUpOrders(handle.db, { userId, limit: 5 }), []);
    });

    test('a provider that is down when the order is created: a clear 502, the order canceled, nothing charged', async () => {
      const userId = await newUser();
      service.isDown = true;
      try {
        await assert.rejects(newOrder(userId), (error: Error & { status?: number; code?: string }) => {
          assert.equal(error.status, 502);
          assert.equal(error.code, 'payment_provider_unavailable');
          assert.match(error.message, /nothing was charged/);
          return true;
        });
      } finally {
        service.isDown = false;
      }
      const [order] = await listTopUpOrders(handle.db, { userId, limit: 5 });
      assert.equal(order?.status, 'canceled');
      const transitions = await listTopUpOrderTransitions(handle.db, order?.id ?? '');
      assert.match(transitions.at(-1)?.cause ?? '', /^provider failed: test payment service answered HTTP 503/);
      assert.equal(await balanceOf(userId), 0);
    });

    test('a live-mode gateway refuses a sandbox notification', async () => {
      const live = createTestPaymentProvider({ service, isSandbox: false });
      try {
        const userId = await newUser();
        deps = depsWith(live);
        const order = await newOrder(userId);
        assert.equal(order.is_sandbox, 0);
        const event = await successOf(order.provider_payment_id ?? '');
        assert.equal(event.kind === 'succeeded' && event.payment.isTest, false);
        const forgedTest =
          event.kind === 'succeeded' ? { ...event, payment: { ...event.payment, isTest: true } } : event;
        assert.deepEqual(await apply(forgedTest, live), { kind: 'sandbox_in_live_mode' });
        assert.equal(await balanceOf(userId), 0);
        assert.equal((await apply(event, live)).kind, 'applied');
        assert.equal(await balanceOf(userId), creditOfThousandRoubles);
        assert.equal(await sumLedgerAccount(handle.db, 'system:top-ups:yookassa'), -creditOfThousandRoubles);
      } finally {
        deps = depsWith(provider);
        await live.close();
      }
      await assertLedgerBalanced(handle.db);
    });
  });
}
