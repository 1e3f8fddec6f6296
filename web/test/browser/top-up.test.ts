import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { Balance } from '../../../contract/balance.ts';
import type { TopUpOrderView } from '../../../contract/payments.ts';
import { assertLedgerBalanced } from '../../../server/test/support/assert-ledger-balanced.ts';
import { startTestGateway, type TestGateway } from '../../../server/test/support/start-test-gateway.ts';
import { assertWebAppBuilt, launchBrowser, type TestBrowser } from './support/launch-browser.ts';
import { readQrCode } from './support/read-qr-code.ts';
import { usdText } from './support/usd-text.ts';

/**
 * Top-ups in a real browser against a sandbox gateway and its payment simulators: sign up, top up with each method
 * (Pay on the simulator's hosted page), come back to the return page, and see the balance change exactly once, the
 * history row and the receipt. A declined payment changes nothing.
 */

let gateway: TestGateway;
let browser: TestBrowser;
let page: Page;
/** The gateway's own address: the providers send the payer back to PUBLIC_BASE_URL, so the browser uses it too. */
let baseUrl = '';
const email = 'top-up-customer@example.com';
const password = 'correct horse battery staple';

/** A port free right now on loopback, so PUBLIC_BASE_URL can name the port the gateway will listen on. */
async function findFreePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  assert.ok(address !== null && typeof address === 'object');
  return address.port;
}

before(async () => {
  assertWebAppBuilt();
  const port = await findFreePort();
  baseUrl = `http://127.0.0.1:${port}`;
  gateway = await startTestGateway({
    environment: { PORT: String(port), PUBLIC_BASE_URL: baseUrl, WELCOME_BALANCE_USD: '1' },
  });
  browser = await launchBrowser();
  page = await browser.openPage();
});

after(async () => {
  await browser?.close();
  await gateway?.close();
});

const db = () => gateway.gateway.database.db;

/** The balance in micro-USD, read with the page's own session. */
async function readBalanceMicros(): Promise<number> {
  const balance = await page.evaluate(async () => (await fetch('/api/balance')).json() as Promise<Balance>);
  return Math.round(balance.balance_usd * 1_000_000);
}

/** The customer's balance in micro-USD, from the database (the operator's session cannot read it as the customer). */
async function readCustomerBalanceMicros(): Promise<number> {
  const row = await db()
    .selectFrom('users')
    .select('balance_micros')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return Number(row.balance_micros);
}

async function readOrder(id: string): Promise<TopUpOrderView> {
  return page.evaluate(
    async (orderId) => (await fetch(`/api/top-ups/${orderId}`)).json() as Promise<TopUpOrderView>,
    id,
  );
}

/** On the dashboard: picks the method, types the amount, waits for the quote and goes to the provider's page. */
async function startTopUp(method: string, amount: string, siteUrl = baseUrl): Promise<{ quoteText: string }> {
  await page.goto(`${siteUrl}/dashboard`);
  const panel = page.locator('[data-panel="top-up"]');
  await panel.locator(`[data-method="${method}"]`).click();
  await panel.getByLabel(/^Amount/).fill(amount);
  const quote = panel.locator('[data-quote]');
  await quote.waitFor();
  const quoteText = (await quote.textContent()) ?? '';
  assert.match(quoteText, /Sandbox/, 'sandbox money is labelled as such');
  await panel.getByRole('button', { name: 'Go to payment' }).click();
  await page.locator('#pay').waitFor();
  return { quoteText };
}

test('sign-up, then an amount under the minimum is refused in the form before any order exists', async () => {
  await page.goto(`${baseUrl}/sign-up`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  const panel = page.locator('[data-panel="top-up"]');
  await panel.locator('[data-method="card_rub"]').click();
  await panel.getByLabel('Amount, RUB').fill('150');
  await panel.locator('[data-quote-error]').filter({ hasText: 'The smallest top-up is 200.00 RUB' }).waitFor();
  assert.equal(await panel.getByRole('button', { name: 'Go to payment' }).isDisabled(), true);
  await panel.getByLabel('Amount, RUB').fill('1000');
  await panel.locator('[data-quote]').waitFor();
  await panel.getByLabel('Amount, RUB').fill('199.99');
  await panel.locator('[data-below-minimum]').filter({ hasText: '200.00 RUB' }).waitFor();
  assert.equal(await panel.getByRole('button', { name: 'Go to payment' }).isDisabled(), true);
  assert.equal(await db().selectFrom('top_up_orders').select('id').executeTakeFirst(), undefined);
});

for (const { method, amount, provider, paid } of [
  { method: 'card_rub', amount: '1000', provider: 'yookassa', paid: '1,000.00 RUB' },
  { method: 'sbp', amount: '1500.50', provider: 'yookassa', paid: '1,500.50 RUB' },
  { method: 'yoo_money', amount: '200', provider: 'yookassa', paid: '200.00 RUB' },
  { method: 'card_usd', amount: '5', provider: 'stripe', paid: '5.00 USD' },
] as const) {
  test(`${method}: Pay on the hosted page, back on the return page, the balance grows exactly once`, async () => {
    await page.goto(`${baseUrl}/dashboard`);
    const balanceBefore = await readBalanceMicros();
    const { quoteText } = await startTopUp(method, amount);
    assert.match(quoteText, new RegExp(`You pay ${paid.replaceAll('.', '\\.')}`));
    if (method === 'sbp') {
      const link = await page.locator('#sbp-link').getAttribute('href');
      assert.ok(link);
      assert.equal(await readQrCode(page.locator('#sbp-qr svg')), link, 'the QR code carries the SBP payment link');
    }
    await page.locator('#pay').click();
    await page.waitForURL(/\/billing\/return\?order=/);
    const outcome = page.locator('[data-outcome="succeeded"]');
    await outcome.waitFor({ timeout: 20_000 });
    const orderId = new URL(page.url()).searchParams.get('order') ?? '';
    const order = await readOrder(orderId);
    assert.equal(order.provider, provider);
    assert.equal(order.is_sandbox, true);
    const creditMicros = Math.round(order.credit_usd * 1_000_000);
    assert.ok(creditMicros > 0);
    assert.match((await outcome.textContent()) ?? '', new RegExp(`\\${usdText(order.credit_usd)} was added`));

    // Coming back again (a second poll, a reload) and the provider's re-deliveries credit nothing more.
    await page.reload();
    await page.locator('[data-outcome="succeeded"]').waitFor();
    assert.equal(await readBalanceMicros(), balanceBefore + creditMicros);
    const credits = await db()
      .selectFrom('ledger_transactions')
      .select('idempotency_key')
      .where('idempotency_key', 'like', `topup:${provider}:%`)
      .execute();
    assert.equal(new Set(credits.map((row) => row.idempotency_key)).size, credits.length);

    await page.goto(`${baseUrl}/dashboard`);
    await page
      .locator('[data-amount="balance"]')
      .filter({ hasText: usdText((balanceBefore + creditMicros) / 1e6) })
      .waitFor();
    const row = page.locator(`[data-top-up-history] tr[data-order-id="${orderId}"]`);
    await row.waitFor();
    assert.equal(await row.getAttribute('data-status'), 'succeeded');
    assert.equal(await row.locator('[data-field="paid"]').textContent(), paid);
    assert.equal(await row.locator('[data-field="credited"]').textContent(), usdText(order.credit_usd));
    await row.getByRole('link', { name: 'Receipt' }).click();
    const receipt = page.locator(`[data-receipt="${orderId}"]`);
    await receipt.waitFor();
    assert.equal(await receipt.locator('[data-field="paid"]').textContent(), paid);
    assert.equal(await receipt.locator('[data-field="credited"]').textContent(), usdText(order.credit_usd));
    assert.equal(await receipt.locator('[data-field="account"]').textContent(), email);
    assert.match((await receipt.locator('[data-sandbox]').textContent()) ?? '', /SANDBOX/);
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.locator('.site-header').isVisible(), false, 'the printed receipt has no site header');
    await page.emulateMedia({ media: 'screen' });
    await assertLedgerBalanced(db());
  });
}

test('a declined payment comes back as failed and changes nothing', async () => {
  await page.goto(`${baseUrl}/dashboard`);
  const balanceBefore = await readBalanceMicros();
  await startTopUp('card_rub', '300');
  await page.locator('#decline').click();
  await page.waitForURL(/\/billing\/return\?order=/);
  await page.locator('[data-outcome="failed"]').waitFor({ timeout: 20_000 });
  const orderId = new URL(page.url()).searchParams.get('order') ?? '';
  assert.equal((await readOrder(orderId)).status, 'canceled');
  assert.equal(await readBalanceMicros(), balanceBefore);
  await page.goto(`${baseUrl}/dashboard`);
  const row = page.locator(`[data-top-up-history] tr[data-order-id="${orderId}"]`);
  await row.waitFor();
  assert.equal(await row.getAttribute('data-status'), 'canceled');
  assert.equal(await row.getByRole('link', { name: 'Receipt' }).count(), 0);
  await assertLedgerBalanced(db());
  // The simulators' pages are not ours (the browser's favicon request there gets a 401); on the gateway's pages the
  // only failed request is the quote under the minimum, refused with 400 on purpose.
  assert.deepEqual(
    browser.pageErrors.filter((line) => line.startsWith(baseUrl)),
    [`${baseUrl}/dashboard: console: Failed to load resource: the server responded with a status of 400 (Bad Request)`],
  );
});

test('the operator console lists the payments, shows the webhook URLs, refunds one and marks the declined one paid', async () => {
  const operatorEmail = 'top-up-operator@example.com';
  await gateway.createUserWithKey({ role: 'admin', email: operatorEmail });
  await browser.context.clearCookies();
  const login = await browser.context.request.post(`${baseUrl}/api/auth/login`, {
    data: { email: operatorEmail, password },
  });
  assert.equal(login.status(), 200, await login.text());
  await page.goto(`${baseUrl}/operator`);
  await page.getByRole('tab', { name: 'Payments' }).click();
  const panel = page.locator('[data-panel="payments"]');
  const webhooks = panel.locator('[data-payment-webhooks] [data-provider]');
  await webhooks.first().waitFor();
  const urls = await webhooks.locator('[data-field="url"]').allTextContents();
  assert.deepEqual(
    urls.sort(),
    ['cloudpayments', 'stripe', 'yookassa'].map((id) => `${baseUrl}/webhooks/${id}`),
  );

  const filters = panel.getByRole('form', { name: 'Filters' });
  await filters.getByLabel('Method').selectOption('card_usd');
  await filters.getByRole('button', { name: 'Apply' }).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-payments] > li').length === 1);
  const usdOrder = await db()
    .selectFrom('top_up_orders')
    .select(['id', 'credit_micros'])
    .where('method', '=', 'card_usd')
    .executeTakeFirstOrThrow();
  const usdRow = panel.locator(`[data-payment-id="${usdOrder.id}"]`);
  assert.equal(await usdRow.getAttribute('data-status'), 'succeeded');
  const beforeRefund = await readCustomerBalanceMicros();
  await usdRow.getByRole('button', { name: 'History' }).click();
  const refund = usdRow.getByRole('form', { name: 'Refund' });
  await refund.getByLabel(/^Amount, USD/).fill('2');
  await refund.getByLabel('Reason (required)').fill('customer asked');
  await refund.getByRole('button', { name: 'Confirm' }).click();
  await usdRow.getByRole('status').filter({ hasText: 'Refunded through the provider' }).waitFor();
  // 2 of the 5 USD paid take back 2/5 of the credit, rounded up (docs/payments.md, "Refunds and chargebacks").
  const takenBack = Math.ceil((Number(usdOrder.credit_micros) * 200) / 500);
  assert.equal(await readCustomerBalanceMicros(), beforeRefund - takenBack);
  await panel.locator(`[data-payment-id="${usdOrder.id}"][data-status="partially_refunded"]`).waitFor();

  await filters.getByLabel('Method').selectOption('');
  await filters.getByLabel('Status').selectOption('canceled');
  await filters.getByRole('button', { name: 'Apply' }).click();
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-payments] > li')].every(
      (row) => row.getAttribute('data-status') === 'canceled',
    ),
  );
  const declinedId = (await panel.locator('[data-payments] > li').first().getAttribute('data-payment-id')) ?? '';
  const declined = panel.locator(`[data-payment-id="${declinedId}"]`);
  const declinedOrder = await db()
    .selectFrom('top_up_orders')
    .select('credit_micros')
    .where('id', '=', declinedId)
    .executeTakeFirstOrThrow();
  const beforeMark = await readCustomerBalanceMicros();
  await declined.getByRole('button', { name: 'History' }).click();
  const mark = declined.getByRole('form', { name: 'Mark paid' });
  await mark.getByRole('button', { name: 'Confirm' }).click();
  assert.equal(await readCustomerBalanceMicros(), beforeMark, 'no reason, no credit (the form refuses to send)');
  await mark.getByLabel('Reason (required)').fill('found in the YooKassa dashboard');
  await mark.getByRole('button', { name: 'Confirm' }).click();
  await declined.getByRole('status').filter({ hasText: 'Credited.' }).waitFor();
  assert.equal(await readCustomerBalanceMicros(), beforeMark + Number(declinedOrder.credit_micros));
  await declined.locator('[data-transitions]').filter({ hasText: 'found in the YooKassa dashboard' }).waitFor();
  assert.equal(await declined.getAttribute('data-status'), 'succeeded');
  await assertLedgerBalanced(db());
});

test('with PAYMENT_METHOD_PROVIDERS=card_rub=cloudpayments, a card payment in roubles goes through CloudPayments', async () => {
  const port = await findFreePort();
  const otherBaseUrl = `http://127.0.0.1:${port}`;
  const other = await startTestGateway({
    environment: {
      PORT: String(port),
      PUBLIC_BASE_URL: otherBaseUrl,
      PAYMENT_METHOD_PROVIDERS: 'card_rub=cloudpayments',
    },
  });
  try {
    await browser.context.clearCookies();
    const registered = await browser.context.request.post(`${otherBaseUrl}/api/auth/register`, {
      data: { email: 'cloudpayments-customer@example.com', password },
    });
    assert.equal(registered.status(), 201, await registered.text());
    await page.goto(`${otherBaseUrl}/dashboard`);
    const balanceBefore = await readBalanceMicros();
    await startTopUp('card_rub', '1000', otherBaseUrl);
    await page.locator('#pay').click();
    await page.waitForURL(/\/billing\/return\?order=/);
    await page.locator('[data-outcome="succeeded"]').waitFor({ timeout: 20_000 });
    const order = await readOrder(new URL(page.url()).searchParams.get('order') ?? '');
    assert.equal(order.provider, 'cloudpayments');
    assert.equal(await readBalanceMicros(), balanceBefore + Math.round(order.credit_usd * 1_000_000));
    await assertLedgerBalanced(other.gateway.database.db);
  } finally {
    await other.close();
  }
});
