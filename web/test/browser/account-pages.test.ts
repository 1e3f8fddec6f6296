import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestGateway, type TestGateway } from '../../../server/test/support/start-test-gateway.ts';
import { screenshotFitting } from './support/chat-page.ts';
import { assertWebAppBuilt, launchBrowser, type TestBrowser } from './support/launch-browser.ts';
import { usdText } from './support/usd-text.ts';

/**
 * The account pages in a real browser against a real gateway (sandbox mode, fresh SQLite): sign-up with its
 * password rules and the welcome balance, and an API key shown once, copied, listed by its prefix and revoked.
 * The chat has its own files (chat.test.ts, chat-session.test.ts).
 */

let gateway: TestGateway;
let browser: TestBrowser;
let page: Page;
const email = `account-user-${Date.now()}@example.com`;
const password = 'correct horse battery staple';

before(async () => {
  assertWebAppBuilt();
  gateway = await startTestGateway();
  browser = await launchBrowser();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gateway.url });
  page = await browser.openPage();
});

after(async () => {
  await browser?.close();
  await gateway?.close();
});

const db = () => gateway.gateway.database.db;

test('sign-up refuses weak and mismatched passwords, then shows the welcome balance', async () => {
  await page.goto(`${gateway.url}/sign-up`);
  await page.getByRole('heading', { level: 1, name: 'Create an account' }).waitFor();
  await screenshotFitting(page, 'sign-up');
  await page.getByLabel('E-mail').fill(email);
  const attempts = [
    { first: 'short', second: 'short', message: 'at least 10 characters' },
    { first: 'aaaaabbbbbaaaa', second: 'aaaaabbbbbaaaa', message: 'at least 5 different characters' },
    { first: email, second: email, message: 'must not be your e-mail' },
    { first: password, second: `${password}!`, message: 'do not match' },
  ];
  for (const attempt of attempts) {
    await page.getByLabel('Password', { exact: true }).fill(attempt.first);
    await page.getByLabel('Repeat the password').fill(attempt.second);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('alert').filter({ hasText: attempt.message }).waitFor();
  }
  assert.equal(await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirst(), undefined);

  await page.getByLabel('Repeat the password').fill(password);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  const welcome = usdText(gateway.config.welcomeBalanceMicros / 1e6);
  assert.match(
    (await page.locator('[data-welcome]').textContent()) ?? '',
    new RegExp(`welcome balance of \\${welcome}`),
  );
  await page.locator('[data-amount="balance"]').waitFor();
  assert.equal(await page.locator('[data-amount="balance"]').textContent(), welcome);
  assert.equal(await page.locator('[data-amount="available"]').textContent(), welcome);
  assert.match((await page.locator('.movements__item[data-kind="welcome"]').textContent()) ?? '', /Welcome balance/);
  assert.deepEqual(await page.locator('[data-panel="top-up"] [data-method]').allTextContents(), [
    'Bank card (RUB)',
    'SBP (fast payments, RUB)',
    'YooMoney wallet (RUB)',
    'Bank card (USD)',
    'USDT (TRC20)',
  ]);
  await page.locator('[data-panel="top-up"]').getByText('No top-ups yet.').waitFor();
  await screenshotFitting(page, 'dashboard');
});

test('a new key is shown once with a warning and copied; the list shows only its prefix and last four', async () => {
  await page.getByLabel('Name', { exact: true }).fill('laptop');
  await page.getByLabel('Spend cap, USD (optional)').fill('2.5');
  await page.getByLabel(/Budget per day, USD/).fill('0.75');
  const allowedModel = (await (await fetch(`${gateway.url}/api/models`)).json()) as { data: { id: string }[] };
  const allowedId = allowedModel.data[0]?.id ?? '';
  await page.getByLabel(/Only these models/).selectOption([allowedId]);
  await page.getByRole('button', { name: 'Create key' }).click();
  const shown = page.locator('[data-created-key] code');
  await shown.waitFor();
  const key = (await shown.textContent()) ?? '';
  assert.match(key, /^sk-[A-Za-z0-9_-]{43}$/);
  assert.match((await page.locator('[data-created-key]').textContent()) ?? '', /will not be shown again/);
  await page.getByRole('button', { name: 'Copy the new key' }).click();
  await page.getByRole('button', { name: 'Copy the new key' }).getByText('Copied').waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key);

  const models = await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(models.status, 200, 'the copied key works');
  const row = page.locator('tr[data-key-id]').filter({ hasText: 'laptop' });
  assert.equal(await row.locator('[data-key-mask]').textContent(), `${key.slice(0, 7)}…${key.slice(-4)}`);
  assert.match((await row.textContent()) ?? '', /\$0\.00 of \$2\.50 spent/);
  assert.match((await row.textContent()) ?? '', /\$0\.75 a day/);
  assert.ok(((await row.textContent()) ?? '').includes(allowedId), 'the allowlist is listed');
  await page.getByRole('button', { name: 'I have saved it' }).click();
  assert.equal(await page.locator('[data-created-key]').count(), 0);
  assert.ok(!(await page.content()).includes(key.slice(7, -4)), 'the key is gone from the page');

  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Revoke key laptop' }).click();
  await row.waitFor({ state: 'detached' });
  let status = 200;
  for (let attempt = 0; attempt < 50 && status !== 401; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = (await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).status;
  }
  assert.equal(status, 401, 'the revoked key is refused');
});

test('no page threw a script error', () => {
  // A refused request (the 401 that ends a session, a wrong password) is logged by the browser itself; it is expected.
  assert.deepEqual(
    browser.pageErrors.filter((error) => !error.includes('Failed to load resource')),
    [],
  );
});
