import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { Balance } from '../../../contract/balance.ts';
import type { TopUpOrderView } from '../../../contract/payments.ts';
import { assertLedgerBalanced } from '../../../server/test/support/assert-ledger-balanced.ts';
import { startTestGateway, type TestGateway } from '../../../server/test/support/start-test-gateway.ts';
import { assertWebAppBuilt, launchBrowser, type TestBrowser } from './support/launch-browser.ts';
import { readQrCode } from './support/read-qr-code.ts';

/**
 * USDT (TRC20) top-ups in a real browser against a sandbox gateway, once per way: direct watching of the TronGrid
 * simulator (on a phone-width screen, in Russian) and the NOWPayments simulator as a hosted processor (desktop,
 * English). The sandbox buttons play the payer; the balance must change by what was paid, exactly once.
 */

const password = 'correct horse battery staple';
const settleMs = 3500;

async function signUp(page: Page, baseUrl: string, email: string): Promise<void> {
  await page.goto(`${baseUrl}/sign-up`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
}

async function readBalanceMicros(page: Page): Promise<number> {
  const balance = await page.evaluate(async () => (await fetch('/api/balance')).json() as Promise<Balance>);
  return Math.round(balance.balance_usd * 1_000_000);
}

async function readOrder(page: Page, id: string): Promise<TopUpOrderView> {
  return page.evaluate(
    async (orderId) => (await fetch(`/api/top-ups/${orderId}`)).json() as Promise<TopUpOrderView>,
    id,
  );
}

/** Picks USDT on the dashboard, types the USD amount and creates the order; returns the deposit view's order id. */
async function startUsdtOrder(page: Page, baseUrl: string, amount: string): Promise<string> {
  await page.goto(`${baseUrl}/dashboard`);
  const panel = page.locator('[data-panel="top-up"]');
  await panel.locator('[data-method="usdt_trc20"]').click();
  await panel.locator('input[name="amount"]').fill(amount);
  await panel.locator('[data-quote]').waitFor();
  await panel.locator('form[data-top-up-form] button[type="submit"]').click();
  const deposit = panel.locator('[data-usdt-deposit]');
  await deposit.waitFor();
  return (await deposit.getAttribute('data-usdt-deposit')) ?? '';
}

/** The address and amount shown match the order, the QR code carries the address, the warning and countdown show. */
async function checkDepositShown(page: Page, orderId: string, expectedAmount: string): Promise<void> {
  const order = await readOrder(page, orderId);
  const address = order.crypto_deposit?.address ?? '';
  assert.match(address, /^T[1-9A-HJ-NP-Za-km-z]{33}$/);
  const deposit = page.locator(`[data-usdt-deposit="${orderId}"]`);
  assert.equal(await deposit.locator('[data-field="address"]').textContent(), address);
  assert.equal(await deposit.locator('[data-field="amount"]').textContent(), expectedAmount);
  assert.equal(await readQrCode(deposit.locator('svg[data-qr]')), address, 'the QR code carries the address');
  assert.match((await deposit.locator('[data-usdt-warning]').textContent()) ?? '', /TRON|TRC20/);
  const countdown = Number(await deposit.locator('[data-countdown]').getAttribute('data-countdown'));
  assert.ok(countdown > 0, 'a countdown to the order’s expiry');
}

async function waitForStage(page: Page, orderId: string, stage: string): Promise<void> {
  await page.locator(`[data-usdt-deposit="${orderId}"][data-stage="${stage}"]`).waitFor({ timeout: 20_000 });
}

async function creditsOf(gateway: TestGateway, orderId: string): Promise<number> {
  const rows = await gateway.gateway.database.db
    .selectFrom('top_up_orders')
    .select('credited_micros')
    .where('id', '=', orderId)
    .execute();
  return Number(rows[0]?.credited_micros ?? -1);
}

/** The operator opens the paid order: the derived address with its index, the transfer linked to the explorer. */
async function checkOperatorConsole(gateway: TestGateway, browser: TestBrowser, orderId: string): Promise<void> {
  const operatorEmail = 'usdt-operator@example.com';
  await gateway.createUserWithKey({ role: 'admin', email: operatorEmail });
  await browser.context.clearCookies();
  const login = await browser.context.request.post(`${gateway.url}/api/auth/login`, {
    data: { email: operatorEmail, password },
  });
  assert.equal(login.status(), 200, await login.text());
  const page = await browser.openPage();
  await page.goto(`${gateway.url}/operator`);
  await page.getByRole('radio', { name: 'English' }).check();
  await page.getByRole('tab', { name: 'Payments' }).click();
  const row = page.locator(`[data-payments] [data-payment-id="${orderId}"]`);
  await row.getByRole('button', { name: 'History' }).click();
  const detail = row.locator('[data-crypto-deposit]');
  await detail.waitFor();
  const deposit = await gateway.gateway.database.db
    .selectFrom('crypto_deposits')
    .select(['pay_address', 'derivation_index'])
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow();
  assert.equal(await detail.locator('[data-field="address"]').textContent(), deposit.pay_address);
  assert.equal(await detail.locator('[data-field="derivation-index"]').textContent(), String(deposit.derivation_index));
  const transfers = await gateway.gateway.database.db
    .selectFrom('crypto_deposit_transfers')
    .select('tx_id')
    .where('order_id', '=', orderId)
    .execute();
  assert.equal(transfers.length, 1, 'one credited transfer: the look-alike is not one');
  const link = detail.locator(`[data-transfer="${transfers[0]?.tx_id}"] a[data-field="tx"]`);
  assert.equal(await link.getAttribute('href'), `https://tronscan.org/#/transaction/${transfers[0]?.tx_id}`);
  assert.equal(await detail.locator('[data-flag]').count(), 0, 'paid in time and in full: no flag');
}

describe('USDT by direct watching of TRON, on a phone, in Russian', () => {
  let gateway: TestGateway;
  let browser: TestBrowser;
  after(async () => {
    await browser?.close();
    await gateway?.close();
  });

  test('a look-alike credits nothing; the exact amount, once confirmed, is credited exactly once', async () => {
    assertWebAppBuilt();
    gateway = await startTestGateway({ environment: { WELCOME_BALANCE_USD: '0' } });
    browser = await launchBrowser();
    const page = await browser.openPage({ width: 375, height: 812 });
    await signUp(page, gateway.url, 'usdt-direct@example.com');
    await page.getByRole('radio', { name: 'Русский' }).check();
    const orderId = await startUsdtOrder(page, gateway.url, '10');
    const order = await readOrder(page, orderId);
    assert.equal(order.provider, 'tron');
    await checkDepositShown(page, orderId, '10');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the deposit fits a 375 px screen (${overflow} px sideways)`);

    const sandbox = page.locator('[data-usdt-sandbox]');
    await sandbox.locator('[data-sandbox-action="send_look_alike"]').click();
    await sandbox.locator('[data-sandbox-confirm]').first().click();
    await sandbox.locator('[data-sandbox-transfer][data-confirmed="true"]').waitFor();
    await sandbox.locator('[data-sandbox-action="send_exact"]').click();
    await waitForStage(page, orderId, 'seen');
    assert.equal(await readBalanceMicros(page), 0, 'seen is not credited, and the look-alike never is');
    await sandbox.locator('[data-sandbox-confirm]').first().click();
    await waitForStage(page, orderId, 'credited');
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    assert.equal(await readBalanceMicros(page), 10_000_000);
    assert.equal(await creditsOf(gateway, orderId), 10_000_000);
    assert.equal(await page.locator(`[data-usdt-deposit="${orderId}"] [data-step][data-done="true"]`).count(), 4);
    await assertLedgerBalanced(gateway.gateway.database.db);
    await checkOperatorConsole(gateway, browser, orderId);
  });
});

describe('USDT through the hosted processor (NOWPayments simulator)', () => {
  let gateway: TestGateway;
  let browser: TestBrowser;
  after(async () => {
    await browser?.close();
    await gateway?.close();
  });

  test('half, then the full amount: partly paid, then paid, each credited exactly once', async () => {
    assertWebAppBuilt();
    gateway = await startTestGateway({ environment: { WELCOME_BALANCE_USD: '0', USDT_WAY: 'processor' } });
    browser = await launchBrowser();
    const page = await browser.openPage();
    await signUp(page, gateway.url, 'usdt-processor@example.com');
    const orderId = await startUsdtOrder(page, gateway.url, '20');
    assert.equal((await readOrder(page, orderId)).provider, 'nowpayments');
    await checkDepositShown(page, orderId, '20');
    const sandbox = page.locator('[data-usdt-sandbox]');
    assert.equal(await sandbox.locator('[data-sandbox-action="send_look_alike"]').count(), 0);
    await sandbox.locator('[data-sandbox-action="send_smaller"]').click();
    await waitForStage(page, orderId, 'partial');
    assert.match(
      (await page.locator(`[data-usdt-deposit="${orderId}"] [role="status"]`).last().textContent()) ?? '',
      /Partly paid: 10 of 20 USDT/,
    );
    assert.equal(await readBalanceMicros(page), 10_000_000);
    await page.locator('[data-usdt-sandbox] [data-sandbox-action="send_exact"]').click();
    await waitForStage(page, orderId, 'credited');
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    assert.equal(await readBalanceMicros(page), 30_000_000, 'an overpayment is credited in full, once');
    assert.equal(await creditsOf(gateway, orderId), 30_000_000);
    await assertLedgerBalanced(gateway.gateway.database.db);
  });
});
