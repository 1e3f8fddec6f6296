import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestGateway, type TestGateway } from '../../../server/test/support/start-test-gateway.ts';
import { assertWebAppBuilt, launchBrowser, type TestBrowser } from './support/launch-browser.ts';

/**
 * The dashboard's account settings in a real browser against a real gateway (sandbox mode, fresh SQLite): the
 * low-balance alert, the data export, and deleting an account that holds its welcome balance (the balance's fate
 * must be chosen; then the account is gone and signed out).
 */

let gateway: TestGateway;
let browser: TestBrowser;
let page: Page;
const email = `account-data-${Date.now()}@example.com`;
const password = 'correct horse battery staple';

before(async () => {
  assertWebAppBuilt();
  gateway = await startTestGateway();
  browser = await launchBrowser();
  page = await browser.openPage();
  await page.goto(`${gateway.url}/sign-up`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
});

after(async () => {
  await browser?.close();
  await gateway?.close();
});

const db = () => gateway.gateway.database.db;
const user = () => db().selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();

test('the low-balance alert is saved; a typo is refused without clearing it', async () => {
  const panel = page.locator('[data-panel="alerts"]');
  await panel.getByText(/a reminder before a subscription renews/).waitFor();
  await panel.getByLabel(/falls below, USD/).fill('2.5');
  await panel.getByRole('button', { name: 'Save alerts' }).click();
  await panel.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  assert.equal((await user())?.alert_low_balance_micros, 2_500_000);
  await panel.getByLabel(/falls below, USD/).fill('two');
  await panel.getByRole('button', { name: 'Save alerts' }).click();
  await panel.getByRole('status').filter({ hasText: 'Write an amount in USD' }).waitFor();
  assert.equal((await user())?.alert_low_balance_micros, 2_500_000);
});

test('the data export downloads the account as JSON; the usage CSV comes from /api/usage.csv', async () => {
  const panel = page.locator('[data-panel="account-data"]');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('button', { name: 'Download JSON' }).click(),
  ]);
  const exported = JSON.parse(readFileSync((await download.path()) ?? '', 'utf8')) as {
    account: { email: string; low_balance_alert_usd: number | null };
  };
  assert.equal(exported.account.email, email);
  assert.equal(exported.account.low_balance_alert_usd, 2.5);
  assert.equal(await panel.getByRole('link', { name: 'Download usage as CSV' }).getAttribute('href'), '/api/usage.csv');
});

test('deleting an account that holds a balance asks what becomes of it, then signs out', async () => {
  const panel = page.locator('[data-panel="account-data"]');
  await panel.getByText(/still holds \$/).waitFor();
  await panel.getByText(/cannot be undone/).waitFor();
  page.once('dialog', (dialog) => void dialog.accept());
  await panel.getByLabel('Your password, to confirm').fill('wrong password entirely');
  await panel.getByLabel(/Give up the balance/).check();
  await panel.getByRole('button', { name: 'Delete my account' }).click();
  await panel.getByRole('alert').waitFor();
  assert.equal((await user())?.email, email, 'a wrong password deletes nothing');
  page.once('dialog', (dialog) => void dialog.accept());
  await panel.getByLabel('Your password, to confirm').fill(password);
  await panel.getByRole('button', { name: 'Delete my account' }).click();
  await page.waitForURL(`${gateway.url}/`);
  assert.equal(await user(), undefined, 'the address is erased');
});
