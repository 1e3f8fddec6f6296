import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { cryptoIds } from '../../src/lib/ids.ts';
import { applyPaymentEvent } from '../../src/payments/apply-payment-event.ts';
import { createTopUpOrder } from '../../src/payments/create-top-up-order.ts';
import { createPaymentProviders } from '../../src/payments/payment-providers.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';
import { databaseKinds } from '../support/test-databases.ts';
import {
  createTestPaymentProvider,
  startTestPaymentService,
  type TestPaymentService,
} from '../support/test-payment-provider.ts';

for (const databaseKind of databaseKinds) {
  describe(`a top-up charged back after it was spent, on ${databaseKind}`, () => {
    let gateway: TestGateway;
    let service: TestPaymentService;
    let provider: ReturnType<typeof createTestPaymentProvider>;

    before(async () => {
      gateway = await startTestGateway({ databaseKind });
      service = await startTestPaymentService();
      provider = createTestPaymentProvider({ service });
    });
    after(async () => {
      await provider.close();
      await service.close();
      await gateway.close();
    });

    const chat = (key: string) =>
      fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] }),
      });

    test('paid calls are refused with a 402 that says the balance went below zero through a chargeback', async () => {
      const db = gateway.gateway.database.db;
      const { userId, key } = await gateway.createUserWithKey({ balanceMicros: 0 });
      const coreDeps = {
        db,
        clock: systemClock,
        ids: cryptoIds,
        fx: { markupBasisPoints: 0, fixedMicroRoublesPerUsd: 100_000_000, maxRateAgeMs: 1, cbrUrl: 'x' },
        paymentProviders: createPaymentProviders([provider]),
        topUps: { minimumMinorUnits: { RUB: 20_000, USD: 500 }, orderTtlMs: 3_600_000 },
        topUpReturnUrl: `${gateway.url}/billing/return`,
        onBalancesChanged: async () => undefined,
      };
      const { order } = await createTopUpOrder(coreDeps, {
        userId,
        customerEmail: 'buyer@example.com',
        method: 'card_rub',
        amount: { currency: 'RUB', minorUnits: 50_000 },
      });
      const paymentId = order.provider_payment_id ?? '';
      const stored = service.payments.get(paymentId);
      assert.ok(stored);
      stored.status = 'succeeded';
      const payment = await provider.fetchPayment(paymentId);
      const success = { kind: 'succeeded' as const, eventKey: `${paymentId}:succeeded`, payment };
      assert.equal(
        (await applyPaymentEvent(coreDeps, { provider, event: success, source: 'webhook' })).kind,
        'applied',
      );
      await waitFor(async () => (await chat(key)).status === 200);
      const dispute = {
        kind: 'charged_back' as const,
        eventKey: 'dispute-1',
        providerPaymentId: paymentId,
        orderId: order.id,
        amount: { currency: 'RUB' as const, minorUnits: 50_000 },
        isTest: true,
      };
      assert.equal(
        (await applyPaymentEvent(coreDeps, { provider, event: dispute, source: 'webhook' })).kind,
        'applied',
      );
      const balance = await sumLedgerAccount(db, userLedgerAccount(userId));
      assert.ok(balance < 0, `the call spent part of the top-up, so the chargeback leaves ${balance} micros`);
      let refusal: Response | undefined;
      await waitFor(async () => {
        refusal = await chat(key);
        return refusal.status === 402;
      });
      const { error } = (await refusal?.json()) as { error: { message: string; code: string } };
      assert.equal(error.code, 'insufficient_credits');
      assert.match(error.message, /^Your balance is -\d+\.\d{6} USD because a top-up was refunded or charged back/);
      await assertLedgerBalanced(db);
    });
  });
}

/** The other node-local caches follow the ledger within one poll of `cache_versions` (500 ms). */
async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail('the condition did not hold within 4 s');
}
