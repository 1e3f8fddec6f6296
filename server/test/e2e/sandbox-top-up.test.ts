import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { z } from 'zod';
import type { topUpOrderSchema } from '../../../contract/payments.ts';
import { callApi, signUp, type BrowserSession } from '../support/account-api-client.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

type TopUpOrder = z.infer<typeof topUpOrderSchema>;

/** The account's balance in micro-USD, from the account API. */
async function readBalanceMicros(gateway: TestGateway, session: BrowserSession): Promise<number> {
  const answer = await callApi(gateway.url, '/api/balance', { session });
  assert.equal(answer.status, 200, answer.text);
  return Math.round((answer.json as { balance_usd: number }).balance_usd * 1_000_000);
}

/** Follows an order as the return page does, until it leaves `pending` (or 10 s pass). */
async function waitForSettled(gateway: TestGateway, session: BrowserSession, orderId: string): Promise<TopUpOrder> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const answer = await callApi(gateway.url, `/api/top-ups/${orderId}`, { session });
    assert.equal(answer.status, 200, answer.text);
    const order = answer.json as TopUpOrder;
    if ((order.status !== 'pending' && order.status !== 'created') || Date.now() > deadline) return order;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a sandbox gateway takes top-ups through the payment simulators', () => {
  let gateway: TestGateway;

  before(async () => {
    gateway = await startTestGateway({ environment: { WELCOME_BALANCE_USD: '0' } });
  });
  after(async () => gateway.close());

  for (const { method, currency, amountMinor, provider } of [
    { method: 'card_usd', currency: 'USD', amountMinor: 500, provider: 'stripe' },
    { method: 'sbp', currency: 'RUB', amountMinor: 100_000, provider: 'yookassa' },
  ] as const) {
    test(`${method}: order → hosted page "Pay" → notification → balance credited once`, async () => {
      const session = await signUp(gateway.url, { email: `${method}@example.com` });
      const before = await readBalanceMicros(gateway, session);
      const created = await callApi(gateway.url, '/api/top-ups', {
        session,
        body: { method, currency, amount_minor: amountMinor },
      });
      assert.equal(created.status, 201, created.text);
      const { order } = created.json as { order: TopUpOrder };
      assert.equal(order.provider, provider);
      assert.equal(order.is_sandbox, true);
      assert.ok(order.confirmation_url, 'the order sends the user to the provider page');
      const page = await fetch(order.confirmation_url);
      assert.equal(page.status, 200);
      const paid = await fetch(`${order.confirmation_url}/pay`, { method: 'POST', redirect: 'manual' });
      assert.ok(paid.status === 303 || paid.status === 302, `the simulator's Pay answered ${paid.status}`);
      const settled = await waitForSettled(gateway, session, order.id);
      assert.equal(settled.status, 'succeeded');
      const creditMicros = Math.round(settled.credit_usd * 1_000_000);
      assert.ok(creditMicros > 0);
      // A re-delivery or a second poll does not credit again.
      await waitForSettled(gateway, session, order.id);
      assert.equal(await readBalanceMicros(gateway, session), before + creditMicros);
      await assertLedgerBalanced(gateway.gateway.database.db);
    });
  }
});
