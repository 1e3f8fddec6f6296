import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CreatedTopUp, TopUpRequest } from '../../../contract/payments.ts';
import { callApi, signIn, signUp, type BrowserSession } from '../support/account-api-client.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

/** Card methods whose sandbox providers refund through their API: YooKassa (RUB), Stripe (USD). */
const cardTopUps = [
  { method: 'card_rub', currency: 'RUB', amount_minor: 100_000, provider: 'yookassa' },
  { method: 'card_usd', currency: 'USD', amount_minor: 1_000, provider: 'stripe' },
] as const satisfies readonly (TopUpRequest & { provider: string })[];

/** Creates a top-up and pays it on the provider simulator's hosted page, then waits until the gateway credits it. */
async function payCardTopUp(
  gateway: TestGateway,
  session: BrowserSession,
  topUp: (typeof cardTopUps)[number],
): Promise<string> {
  const { provider, ...body } = topUp;
  const created = await callApi(gateway.url, '/api/top-ups', { session, body });
  assert.equal(created.status, 201, created.text);
  const { order } = created.json as CreatedTopUp;
  assert.equal(order.provider, provider);
  assert.ok(order.confirmation_url);
  const paid = await fetch(`${order.confirmation_url}/pay`, { method: 'POST', redirect: 'manual' });
  assert.ok(paid.status < 400, `the simulator's hosted page took the payment (${paid.status})`);
  await paid.body?.cancel();
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await callApi(gateway.url, `/api/top-ups/${order.id}`, { session });
    if ((answer.json as { status: string }).status === 'succeeded') return order.id;
    assert.ok(Date.now() < deadline, `order ${order.id} was not credited in 20 s: ${answer.text}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function readRefundedMinor(gateway: TestGateway, orderId: string): Promise<number> {
  const row = await gateway.gateway.database.db
    .selectFrom('top_up_orders')
    .select('refunded_minor_units')
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  return row.refunded_minor_units;
}

describe('operator refunds of card top-ups through the provider simulators', () => {
  let gateway: TestGateway;
  let operator: BrowserSession;

  before(async () => {
    gateway = await startTestGateway({ environment: { WELCOME_BALANCE_USD: '0' } });
    const email = 'refund-operator@example.com';
    await gateway.createUserWithKey({ role: 'admin', email });
    operator = await signIn(gateway.url, { email });
  });
  after(async () => gateway.close());

  const refund = (orderId: string, body: Record<string, unknown>) =>
    callApi(gateway.url, `/api/operator/payments/${orderId}/refund`, { session: operator, body });

  for (const topUp of cardTopUps) {
    test(`${topUp.provider}: a refund without a key, then one with any key the schema allows`, async () => {
      const session = await signUp(gateway.url, { email: `refund-${topUp.provider}@example.com` });
      const orderId = await payCardTopUp(gateway, session, topUp);
      const first = await refund(orderId, { reason: 'customer asked', amount_minor: 100 });
      assert.equal(first.status, 200, first.text);
      assert.equal(await readRefundedMinor(gateway, orderId), 100);
      // Found by the fuzz run: a key with characters an HTTP header cannot carry, or longer than the provider takes.
      for (const key of ['ключ возврата', 'line\nbreak', 'x'.repeat(100)]) {
        const startedMs = Date.now();
        const answer = await refund(orderId, { reason: 'customer asked', amount_minor: 100, idempotency_key: key });
        assert.ok(Date.now() - startedMs < 5_000, `answered in ${Date.now() - startedMs} ms`);
        assert.equal(answer.status, 200, answer.text);
      }
      const again = await refund(orderId, {
        reason: 'customer asked',
        amount_minor: 100,
        idempotency_key: 'x'.repeat(100),
      });
      assert.equal(again.status, 200, again.text);
      assert.equal(await readRefundedMinor(gateway, orderId), 400, 'the repeated key made no second refund');
      await assertLedgerBalanced(gateway.gateway.database.db);
    });
  }

  test('a card top-up marked paid by hand but never paid is a quick 409, whatever the key (the fuzz run found a 502)', async () => {
    const session = await signUp(gateway.url, { email: 'refund-unpaid@example.com' });
    const { provider, ...body } = cardTopUps[0];
    const created = await callApi(gateway.url, '/api/top-ups', { session, body });
    assert.equal(created.status, 201, created.text);
    const { order } = created.json as CreatedTopUp;
    assert.equal(order.provider, provider);
    const marked = await callApi(gateway.url, `/api/operator/payments/${order.id}/mark-paid`, {
      session: operator,
      body: { reason: 'seen in the dashboard' },
    });
    assert.equal(marked.status, 200, marked.text);
    const startedMs = Date.now();
    const answer = await refund(order.id, { reason: 'customer asked', idempotency_key: 'ключ\u0000' });
    assert.ok(Date.now() - startedMs < 5_000, `answered in ${Date.now() - startedMs} ms`);
    assert.equal(answer.status, 409, answer.text);
    assert.equal((answer.json as { error: { code: string } }).error.code, 'not_refundable');
    assert.equal(await readRefundedMinor(gateway, order.id), 0);
    await assertLedgerBalanced(gateway.gateway.database.db);
  });
});
