import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { callApi, signUp, type BrowserSession } from '../support/account-api-client.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

/** The signed-in account's balance in micro-USD. */
async function balanceMicros(gateway: TestGateway, session: BrowserSession): Promise<number> {
  const answer = await callApi(gateway.url, '/api/balance', { session });
  assert.equal(answer.status, 200, answer.text);
  return Math.round((answer.json as { balance_usd: number }).balance_usd * 1_000_000);
}

/** A 5 USD card top-up paid on the Stripe simulator's hosted page; resolves with the credit once it is booked. */
async function payFiveDollars(gateway: TestGateway, session: BrowserSession): Promise<number> {
  const created = await callApi(gateway.url, '/api/top-ups', {
    session,
    body: { method: 'card_usd', currency: 'USD', amount_minor: 500 },
  });
  assert.equal(created.status, 201, created.text);
  const { order } = created.json as { order: { id: string; confirmation_url: string } };
  const paid = await fetch(`${order.confirmation_url}/pay`, { method: 'POST', redirect: 'manual' });
  await paid.arrayBuffer();
  const deadline = Date.now() + 10_000;
  for (;;) {
    const answer = await callApi(gateway.url, `/api/top-ups/${order.id}`, { session });
    const state = answer.json as { status: string; credit_usd: number };
    if (state.status === 'succeeded') return Math.round(state.credit_usd * 1_000_000);
    assert.ok(Date.now() < deadline, `the order is still ${state.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the welcome balance waits for the first credited payment (WELCOME_BALANCE_AT=first-payment)', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway({
      environment: { WELCOME_BALANCE_AT: 'first-payment', WELCOME_BALANCE_USD: '2' },
    });
  });
  after(() => gateway.close());

  test('nothing at sign-up; the first payment brings it once, the second does not', async () => {
    const session = await signUp(gateway.url, { email: 'first-payment@example.com' });
    assert.equal(await balanceMicros(gateway, session), 0);
    const firstCredit = await payFiveDollars(gateway, session);
    assert.equal(await balanceMicros(gateway, session), firstCredit + 2_000_000);
    const secondCredit = await payFiveDollars(gateway, session);
    assert.equal(await balanceMicros(gateway, session), firstCredit + secondCredit + 2_000_000);
    await assertLedgerBalanced(gateway.gateway.database.db);
  });
});
