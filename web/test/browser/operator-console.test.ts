import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { operatorRouteListSchema, type OperatorRoute } from '../../../contract/operator-routes.ts';
import { startTestGateway, type TestGateway } from '../../../server/test/support/start-test-gateway.ts';
import { assertWebAppBuilt, launchBrowser, screenshotDir, type TestBrowser } from './support/launch-browser.ts';

/**
 * The operator console in a real browser against a real gateway: users and balance adjustments, plans and revenue
 * on a phone, routes with their live health, blocking, and the console's refusal of a customer. The Prices tab has
 * its own file (operator-prices.test.ts). Screenshots land in test-artifacts/screenshots/.
 */

let gateway: TestGateway;
let browser: TestBrowser;
const operatorEmail = 'console-operator@example.com';
const customerEmail = 'console-customer@example.com';
let customerKey: string;

/** The money oracle, independent of the app's formatter (as in the public pages test). */
const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 6,
});

before(async () => {
  assertWebAppBuilt();
  // Private upstreams allowed: the routes test adds a route to the loopback simulator.
  gateway = await startTestGateway({ environment: { ALLOW_PRIVATE_UPSTREAMS: 'true' } });
  await gateway.createUserWithKey({ role: 'admin', email: operatorEmail });
  const customer = await gateway.createUserWithKey({ email: customerEmail });
  customerKey = customer.key;
  const call = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${customer.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello there.' }] }),
  });
  assert.equal(call.status, 200, 'a paid call, so the revenue charts have data');
  browser = await launchBrowser();
  const login = await browser.context.request.post(`${gateway.url}/api/auth/login`, {
    data: { email: operatorEmail, password: 'correct horse battery staple' },
  });
  assert.equal(login.status(), 200, await login.text());
});

after(async () => {
  await browser?.close();
  await gateway?.close();
});

async function openConsole(options: { width: number; height: number }): Promise<Page> {
  const page = await browser.openPage(options);
  await page.goto(`${gateway.url}/operator`);
  await page.locator(`[data-user-email="${customerEmail}"]`).waitFor();
  return page;
}

/** The routes as the operator API reports them, read with the operator's session. */
async function listRoutes(): Promise<OperatorRoute[]> {
  const answer = await browser.context.request.get(`${gateway.url}/api/operator/routes`);
  assert.equal(answer.status(), 200, await answer.text());
  return operatorRouteListSchema.parse(await answer.json()).data;
}

/** One chat call as the customer, which must succeed. */
async function callAsCustomer(model: string): Promise<void> {
  const call = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${customerKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello there.' }] }),
  });
  assert.equal(call.status, 200, await call.text());
}

/** An account's balance in USD as the operator API reports it. */
async function readBalanceUsd(email: string): Promise<number> {
  const answer = await browser.context.request.get(`${gateway.url}/api/operator/users?email=${email}`);
  const user = ((await answer.json()) as { data: { email: string; balance_usd: number }[] }).data.find(
    (candidate) => candidate.email === email,
  );
  assert.ok(user, `${email} is listed`);
  return user.balance_usd;
}

test('searching users by e-mail narrows the list; a balance adjustment is posted with its reason', async () => {
  await gateway.createUserWithKey({ email: 'someone-else@example.com' });
  const page = await openConsole({ width: 1280, height: 800 });
  await page.locator('[data-user-email="someone-else@example.com"]').waitFor();
  assert.ok((await page.locator('[data-user-email]').count()) >= 3, 'every account is listed before a search');
  await page.getByRole('searchbox', { name: 'Search by e-mail' }).fill('CONSOLE-cust');
  await page.getByRole('button', { name: 'Search by e-mail' }).click();
  await page.locator('[data-user-email="someone-else@example.com"]').waitFor({ state: 'detached' });
  assert.deepEqual(
    await page
      .locator('[data-user-email]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-user-email'))),
    [customerEmail],
    'a case-insensitive part of the address finds the one account',
  );

  const row = page.locator(`[data-user-email="${customerEmail}"]`);
  const before = await readBalanceUsd(customerEmail);
  await row.getByRole('button', { name: 'Adjust balance' }).click();
  await row.locator('input[name="amount"]').fill('2.5');
  await row.getByRole('button', { name: 'Apply' }).click();
  const isReasonMissing = await row
    .locator('input[name="reason"]')
    .evaluate((input) => (input as HTMLInputElement).validity.valueMissing);
  assert.ok(isReasonMissing, 'no reason: the form is not sent');
  await row.locator('input[name="reason"]').fill('goodwill credit for an outage');
  await row.getByRole('button', { name: 'Apply' }).click();
  await row.getByText('Posted to the ledger.').waitFor();
  const after = usd.format(before + 2.5);
  await row.locator('[data-field="balance"]').getByText(after, { exact: true }).waitFor();
  assert.equal(await readBalanceUsd(customerEmail), before + 2.5);
  const transaction = await gateway.gateway.database.db
    .selectFrom('ledger_transactions')
    .selectAll()
    .where('reason', '=', 'goodwill credit for an outage')
    .execute();
  assert.equal(transaction.length, 1, 'one ledger transaction carries the reason');
  assert.equal(transaction[0]?.kind, 'adjustment');

  await row.locator('select').selectOption('debit');
  await row.locator('input[name="amount"]').fill('1000000');
  await row.locator('input[name="reason"]').fill('too much');
  await row.getByRole('button', { name: 'Apply' }).click();
  await row.getByRole('alert').waitFor();
  assert.equal(await readBalanceUsd(customerEmail), before + 2.5, 'a debit past the balance posts nothing');
  await page.close();
  // The refused debit is a 400 that the browser logs; it is the expected answer here.
  const unexpected = browser.pageErrors.filter((error) => !error.includes('status of 400'));
  browser.pageErrors.splice(0);
  assert.deepEqual(unexpected, []);
});

test('on a phone the console fits the screen: users, plans and revenue', async () => {
  const page = await openConsole({ width: 375, height: 812 });
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok((await overflow()) <= 0, 'no sideways scrolling on the users tab');
  await page.screenshot({ path: path.join(screenshotDir, 'operator-users-375.png'), fullPage: true });

  await page.getByRole('tab', { name: 'Plans' }).click();
  await page.locator('input[name="plan-name"]').fill('Phone plan');
  await page.locator('input[name="plan-price"]').fill('9.99');
  await page.locator('input[name="plan-discount"]').fill('25');
  await page.getByRole('button', { name: 'Create plan' }).click();
  await page.getByText('Phone plan').waitFor();
  assert.ok((await overflow()) <= 0, 'no sideways scrolling on the plans tab');
  await page.screenshot({ path: path.join(screenshotDir, 'operator-plans-375.png'), fullPage: true });

  await page.getByRole('tab', { name: 'Revenue' }).click();
  await page.locator('svg[aria-label="revenue per day"]').waitFor();
  const revenue = (await (await browser.context.request.get(`${gateway.url}/api/operator/revenue`)).json()) as {
    total_usd: number;
    models: Array<{ model: string }>;
  };
  assert.ok(revenue.total_usd > 0);
  assert.equal(await page.locator('[data-field="revenue-total"]').textContent(), usd.format(revenue.total_usd));
  assert.deepEqual(
    revenue.models.map((model) => model.model),
    ['gpt-4o'],
  );
  await page.locator('svg[aria-label="revenue per model"]').getByText('gpt-4o', { exact: true }).waitFor();
  await page.locator('tr[data-request-id]').first().waitFor();
  assert.equal(await page.locator('tr[data-request-id]').count(), 1, 'the one paid call is listed');
  assert.ok((await overflow()) <= 0, 'no sideways scrolling on the revenue tab');
  await page.screenshot({ path: path.join(screenshotDir, 'operator-revenue-375.png'), fullPage: true });

  await page.getByRole('tab', { name: 'Prices' }).click();
  await page.locator('[data-panel="price-history"]').waitFor();
  assert.ok((await overflow()) <= 0, 'no sideways scrolling on the prices tab');
  await page.screenshot({ path: path.join(screenshotDir, 'operator-prices-375.png'), fullPage: true });

  assert.deepEqual(browser.pageErrors, []);

  const routes = await listRoutes();
  await page.getByRole('tab', { name: 'Routes' }).click();
  assert.ok(routes.length > 0, 'the sandbox has routes');
  await page.locator(`[data-route-id="${routes[0]?.id}"]`).waitFor();
  assert.equal(await page.locator('[data-route-id]').count(), routes.length);
  assert.ok((await overflow()) <= 0, 'no sideways scrolling on the routes tab');
  await page.screenshot({ path: path.join(screenshotDir, 'operator-routes-375.png'), fullPage: true });
  await page.close();
  assert.deepEqual(browser.pageErrors, []);
});

test('an operator adds a route, watches its health update live, and disables it; a sandbox route too', async () => {
  const simulatorUrl = gateway.gateway.simulator?.url;
  assert.ok(simulatorUrl, 'the test gateway runs its simulator');
  const model = 'gpt-4o-mini';
  const page = await openConsole({ width: 1280, height: 800 });
  await page.getByRole('tab', { name: 'Routes' }).click();
  await page.locator(`[data-route-id="sandbox:${model}"]`).waitFor();

  await page.locator('select[name="route-model"]').selectOption(model);
  await page.locator('input[name="route-provider"]').fill('openai');
  await page.locator('input[name="route-base-url"]').fill(`${simulatorUrl}/openai/v1`);
  await page.locator('input[name="route-upstream-model"]').fill(model);
  await page.locator('input[name="route-api-key"]').fill('sk-simulated-route-key');
  await page.getByRole('button', { name: 'Add route' }).click();
  await page.getByText('Route added.').waitFor();
  const added = (await listRoutes()).find((route) => route.origin === 'database' && route.model === model);
  assert.ok(added, 'the route is stored');
  assert.equal(added.has_credential, true);
  const row = page.locator(`[data-route-id="${added.id}"]`);
  await row.waitFor();
  assert.equal(await row.locator('[data-field="health"]').textContent(), 'healthy');
  assert.equal(await row.locator('[data-field="attempts"]').textContent(), '0');
  assert.equal(await page.locator(`[data-route-id="sandbox:${model}"]`).count(), 0, 'the simulator stands aside');

  // A call served by the new route shows up in its health without a reload: the open tab polls.
  await callAsCustomer(model);
  await row.locator('[data-field="attempts"]').filter({ hasText: /^1$/ }).waitFor({ timeout: 15_000 });
  assert.equal(await row.locator('[data-field="failures"]').textContent(), '0');
  await page.screenshot({ path: path.join(screenshotDir, 'operator-routes-1280.png'), fullPage: true });

  await row.getByRole('button', { name: 'Disable' }).click();
  await page.getByText('Route disabled: no new call uses it.').waitFor();
  await page.locator(`[data-route-id="${added.id}"][data-enabled="false"]`).waitFor();
  assert.equal((await listRoutes()).find((route) => route.id === added.id)?.enabled, false);
  await callAsCustomer(model);
  const afterCall = (await listRoutes()).find((route) => route.id === added.id);
  assert.equal(afterCall?.health.attempts, 1, 'the disabled route took no new call');

  const sandboxRoute = page.locator('[data-route-id="sandbox:claude-haiku-4-5"]');
  await sandboxRoute.getByRole('button', { name: 'Disable' }).click();
  await page.locator('[data-route-id="sandbox:claude-haiku-4-5"][data-enabled="false"]').waitFor();
  assert.equal((await listRoutes()).find((route) => route.id === 'sandbox:claude-haiku-4-5')?.enabled, false);
  await sandboxRoute.getByRole('button', { name: 'Enable' }).click();
  await page.locator('[data-route-id="sandbox:claude-haiku-4-5"][data-enabled="true"]').waitFor();
  assert.equal((await listRoutes()).find((route) => route.id === 'sandbox:claude-haiku-4-5')?.enabled, true);
  await page.close();
  assert.deepEqual(browser.pageErrors, []);
});

test('blocking a user from the console shows it blocked, and a customer cannot open the console', async () => {
  const page = await openConsole({ width: 1280, height: 800 });
  const row = page.locator(`[data-user-email="${customerEmail}"]`);
  await row.getByRole('button', { name: 'Block' }).click();
  await row.getByText('blocked').waitFor();
  await row.getByRole('button', { name: 'Unblock' }).click();
  await row.getByText('active').waitFor();
  await page.close();

  const russian = await openConsole({ width: 1280, height: 800 });
  await russian.getByRole('radio', { name: 'Русский' }).check();
  await russian.getByRole('tab', { name: 'Пользователи' }).waitFor();
  await russian.getByRole('tab', { name: 'Тарифы' }).click();
  await russian.getByRole('button', { name: 'Создать тариф' }).waitFor();
  await russian.screenshot({ path: path.join(screenshotDir, 'operator-plans-ru-1280.png'), fullPage: true });
  await russian.getByRole('radio', { name: 'English' }).check();
  await russian.close();

  const customerBrowser = await launchBrowser();
  try {
    await customerBrowser.context.request.post(`${gateway.url}/api/auth/login`, {
      data: { email: customerEmail, password: 'correct horse battery staple' },
    });
    const customerPage = await customerBrowser.openPage();
    await customerPage.goto(`${gateway.url}/operator`);
    await customerPage.getByText('This page is for operators.').waitFor();
  } finally {
    await customerBrowser.close();
  }
});
