import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../test/support/test-databases.ts';
import { openDatabase, type DatabaseHandle } from './database.ts';
import { findLatestFxRate, upsertFxRate } from './fx-rates.ts';
import { migrateToLatest } from './migrate.ts';
import { insertPaymentProviderEvent } from './payment-provider-events.ts';
import type { NewTopUpOrderRow } from './schema.ts';
import { insertTopUpOrderTransition, listTopUpOrderTransitions } from './top-up-order-transitions.ts';
import {
  findTopUpOrderByProviderPayment,
  insertTopUpOrder,
  listTopUpOrders,
  listUnsettledTopUpOrders,
  lockTopUpOrder,
  updateTopUpOrder,
} from './top-up-orders.ts';
import { isUniqueViolation } from './unique-violation.ts';

function orderRow(id: string, overrides: Partial<NewTopUpOrderRow> = {}): NewTopUpOrderRow {
  return {
    id,
    user_id: 'usr_a',
    provider: 'yookassa',
    method: 'card_rub',
    pay_minor_units: 100_000,
    pay_currency: 'RUB',
    credit_micros: 10_520_000,
    rate_micros_per_usd: 95_057_034,
    rate_source: 'cbr:2026-11-26',
    markup_basis_points: 0,
    quote_expires_at: 1_000,
    provider_payment_id: null,
    confirmation_url: null,
    status: 'created',
    is_sandbox: 1,
    review_reason: null,
    created_at: 10,
    updated_at: 10,
    ...overrides,
  };
}

for (const kind of databaseKinds) {
  describe(`top-up orders on ${kind}`, () => {
    let testDatabase: TestDatabase;
    let handle: DatabaseHandle;

    before(async () => {
      testDatabase = await createTestDatabase(kind);
      handle = openDatabase(testDatabase.config);
      await migrateToLatest(handle.db);
    });
    after(async () => {
      await handle.close();
      await testDatabase.drop();
    });

    test('an order is found by its provider payment id, which is unique per provider', async () => {
      await insertTopUpOrder(handle.db, orderRow('tpo_1', { provider_payment_id: 'pay_1' }));
      await insertTopUpOrder(handle.db, orderRow('tpo_2', { provider: 'stripe', provider_payment_id: 'pay_1' }));
      const found = await findTopUpOrderByProviderPayment(handle.db, {
        provider: 'stripe',
        providerPaymentId: 'pay_1',
      });
      assert.equal(found?.id, 'tpo_2');
      assert.equal(found?.credit_micros, 10_520_000);
      await assert.rejects(insertTopUpOrder(handle.db, orderRow('tpo_3', { provider_payment_id: 'pay_1' })), (error) =>
        isUniqueViolation(error),
      );
    });

    test('orders without a provider payment id yet do not collide', async () => {
      await insertTopUpOrder(handle.db, orderRow('tpo_4'));
      await insertTopUpOrder(handle.db, orderRow('tpo_5'));
      const unsettled = await listUnsettledTopUpOrders(handle.db, { limit: 10 });
      assert.deepEqual(unsettled.map((row) => row.id).sort(), ['tpo_1', 'tpo_2', 'tpo_4', 'tpo_5']);
    });

    test('locking returns the row inside a transaction and updates apply', async () => {
      await handle.db.transaction().execute(async (trx) => {
        const locked = await lockTopUpOrder(trx, 'tpo_4');
        assert.equal(locked?.status, 'created');
        await updateTopUpOrder(trx, { id: 'tpo_4', changes: { status: 'pending', updated_at: 20 } });
      });
      const listed = await listTopUpOrders(handle.db, { statuses: ['pending'], limit: 10 });
      assert.deepEqual(
        listed.map((row) => row.id),
        ['tpo_4'],
      );
      await handle.db.transaction().execute(async (trx) => {
        assert.equal(await lockTopUpOrder(trx, 'tpo_missing'), undefined);
      });
    });

    test('listing filters by provider, user and dates, newest first, and pages', async () => {
      await insertTopUpOrder(handle.db, orderRow('tpo_6', { user_id: 'usr_b', created_at: 30 }));
      await insertTopUpOrder(handle.db, orderRow('tpo_7', { user_id: 'usr_b', created_at: 40 }));
      const ofB = await listTopUpOrders(handle.db, { userId: 'usr_b', limit: 10 });
      assert.deepEqual(
        ofB.map((row) => row.id),
        ['tpo_7', 'tpo_6'],
      );
      const page = await listTopUpOrders(handle.db, {
        userId: 'usr_b',
        before: { createdAt: 40, id: 'tpo_7' },
        limit: 10,
      });
      assert.deepEqual(
        page.map((row) => row.id),
        ['tpo_6'],
      );
      const stripe = await listTopUpOrders(handle.db, { provider: 'stripe', limit: 10 });
      assert.deepEqual(
        stripe.map((row) => row.id),
        ['tpo_2'],
      );
      const window = await listTopUpOrders(handle.db, { createdFrom: 30, createdBefore: 40, limit: 10 });
      assert.deepEqual(
        window.map((row) => row.id),
        ['tpo_6'],
      );
    });

    test('transitions are listed in order', async () => {
      await insertTopUpOrderTransition(handle.db, {
        id: 'tpt_1',
        order_id: 'tpo_1',
        from_status: null,
        to_status: 'created',
        cause: 'order created',
        at: 1,
      });
      await insertTopUpOrderTransition(handle.db, {
        id: 'tpt_2',
        order_id: 'tpo_1',
        from_status: 'created',
        to_status: 'pending',
        cause: 'payment created',
        at: 2,
      });
      const transitions = await listTopUpOrderTransitions(handle.db, 'tpo_1');
      assert.deepEqual(
        transitions.map((row) => [row.from_status, row.to_status]),
        [
          [null, 'created'],
          ['created', 'pending'],
        ],
      );
    });

    test('a provider event is recorded once per key', async () => {
      const event = {
        provider: 'yookassa',
        event_key: 'pay_1:succeeded',
        order_id: 'tpo_1',
        kind: 'succeeded',
        received_at: 5,
      };
      const results = await Promise.all(Array.from({ length: 10 }, () => insertPaymentProviderEvent(handle.db, event)));
      assert.equal(results.filter(Boolean).length, 1);
      assert.equal(await insertPaymentProviderEvent(handle.db, { ...event, provider: 'stripe' }), true);
    });

    test('the newest day of a currency wins, and a day fetched again is replaced', async () => {
      await upsertFxRate(handle.db, {
        currency: 'RUB',
        rate_date: '2026-11-25',
        micros_per_usd: 80_000_000,
        source: 'cbr',
        fetched_at: 1,
      });
      await upsertFxRate(handle.db, {
        currency: 'RUB',
        rate_date: '2026-11-26',
        micros_per_usd: 81_000_000,
        source: 'cbr',
        fetched_at: 2,
      });
      await upsertFxRate(handle.db, {
        currency: 'RUB',
        rate_date: '2026-11-26',
        micros_per_usd: 81_500_000,
        source: 'cbr',
        fetched_at: 3,
      });
      const latest = await findLatestFxRate(handle.db, 'RUB');
      assert.equal(latest?.micros_per_usd, 81_500_000);
      assert.equal(latest?.rate_date, '2026-11-26');
      assert.equal(await findLatestFxRate(handle.db, 'USD'), undefined);
    });
  });
}
