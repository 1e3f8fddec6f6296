import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { CreatedApiKey } from '../../../contract/api-keys.ts';
import type { AccountSubscription, SubscriptionPlan } from '../../../contract/subscriptions.ts';
import type { UsagePage, UsageRecord } from '../../../contract/usage.ts';
import { callApi, signIn, type BrowserSession } from '../../../server/test/support/account-api-client.ts';
import { startTestGateway, type TestGateway } from '../../../server/test/support/start-test-gateway.ts';
import { assertWebAppBuilt, launchBrowser, screenshotDir, type TestBrowser } from './support/launch-browser.ts';
import { usdText } from './support/usd-text.ts';

/**
 * The dashboard's usage and subscription panels in a real browser against a real gateway (sandbox mode): filters by
 * date, model and key narrow the table and the charts, the charts sum the calls exactly, the CSV download holds the
 * filtered rows, and a plan bought from the balance renews itself when auto-renewal is on.
 */

let gateway: TestGateway;
let browser: TestBrowser;
let page: Page;
let operator: BrowserSession;
const email = 'dashboard-customer@example.com';
const dayMs = 86_400_000;
/** The calls made in `before`: two on key "alpha" today, one on key "beta" moved three days back. */
const calls = { alpha: [] as string[], beta: [] as string[] };
let betaKeyId = '';

before(async () => {
  assertWebAppBuilt();
  gateway = await startTestGateway();
  await gateway.createUserWithKey({ role: 'admin', email: 'dashboard-operator@example.com' });
  operator = await signIn(gateway.url, { email: 'dashboard-operator@example.com' });
  await gateway.createUserWithKey({ email, balanceMicros: 20_000_000 });
  const customer = await signIn(gateway.url, { email });
  const keys: Record<'alpha' | 'beta', CreatedApiKey> = {
    alpha: (await callApi(gateway.url, '/api/keys', { body: { name: 'alpha' }, session: customer }))
      .json as CreatedApiKey,
    beta: (await callApi(gateway.url, '/api/keys', { body: { name: 'beta' }, session: customer }))
      .json as CreatedApiKey,
  };
  betaKeyId = keys.beta.id;
  for (const [name, model] of [
    ['alpha', 'gpt-4o'],
    ['alpha', 'gpt-4o'],
    ['beta', 'claude-haiku-4-5'],
  ] as const) {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys[name].key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello there.' }] }),
    });
    const body = await response.text();
    assert.equal(response.status, 200, body);
    calls[name].push((JSON.parse(body) as { id: string }).id);
  }
  // Three days back, so the charts have two days and the date filters have something to separate.
  await gateway.gateway.database.db
    .updateTable('usage_records')
    .set({ created_at: Date.now() - 3 * dayMs })
    .where('api_key_id', '=', betaKeyId)
    .execute();

  browser = await launchBrowser();
  const login = await browser.context.request.post(`${gateway.url}/api/auth/login`, {
    data: { email, password: 'correct horse battery staple' },
  });
  assert.equal(login.status(), 200, await login.text());
  page = await browser.openPage();
  page.on('dialog', (dialog) => void dialog.accept());
});

after(async () => {
  await browser?.close();
  await gateway?.close();
});

const usageRows = () => page.locator('table[data-table="usage"] tr[data-request-id]');
const usagePanel = () => page.locator('[data-panel="usage"]');
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Every call of the account as the usage API reports it, read with the page's own session. */
async function readUsage(): Promise<UsageRecord[]> {
  const usage = await page.evaluate(async () => (await fetch('/api/usage?limit=50')).json() as Promise<UsagePage>);
  return usage.data;
}

async function applyFilter(filter: { from?: string; to?: string; model?: string; keyId?: string }): Promise<void> {
  const panel = usagePanel();
  await panel.getByLabel('From').fill(filter.from ?? '');
  await panel.getByLabel('To (inclusive)').fill(filter.to ?? '');
  await panel.getByLabel('Model').selectOption(filter.model ?? '');
  await panel.getByLabel('Key').selectOption(filter.keyId ?? '');
  await panel.getByRole('button', { name: 'Apply' }).click();
}

/** Waits until the table lists exactly these request ids (in any order). */
async function waitForRows(expected: readonly UsageRecord[]): Promise<void> {
  const ids = expected.map((row) => row.request_id).sort();
  await page.waitForFunction(
    (wanted) =>
      JSON.stringify(
        [...document.querySelectorAll('table[data-table="usage"] tr[data-request-id]')]
          .map((row) => row.getAttribute('data-request-id'))
          .sort(),
      ) === wanted,
    JSON.stringify(ids),
  );
}

/** The per-model bars as [model, shown cost], in the order shown. */
function readModelBars(): Promise<string[][]> {
  return page
    .locator('[data-chart="per-model"] [data-model]')
    .evaluateAll((bars) =>
      bars.map((bar) => [
        bar.getAttribute('data-model') ?? '',
        bar.querySelector('.model-bars__value')?.textContent ?? '',
      ]),
    );
}

/** The expected per-model bars: each model's calls summed in integer micro-dollars, most expensive first. */
function expectedModelBars(rows: readonly UsageRecord[]): string[][] {
  const micros = new Map<string, number>();
  for (const row of rows) micros.set(row.model, (micros.get(row.model) ?? 0) + Math.round(row.cost_usd * 1e6));
  return [...micros].sort((left, right) => right[1] - left[1]).map(([model, total]) => [model, usdText(total / 1e6)]);
}

test('the usage table and charts show every call; the charts sum them exactly per day and per model', async () => {
  await page.goto(`${gateway.url}/dashboard`);
  const all = await readUsage();
  assert.deepEqual(
    all.map((row) => `chatcmpl-${row.request_id}`).sort(),
    [...calls.alpha, ...calls.beta].sort(),
    'the usage records are the three calls',
  );
  await waitForRows(all);
  assert.deepEqual(await readModelBars(), expectedModelBars(all));
  const days = await page
    .locator('[data-chart="per-day"] [data-day]')
    .evaluateAll((columns) => columns.map((column) => column.getAttribute('data-day')));
  assert.deepEqual(
    days,
    [utcDate(Date.now() - 3 * dayMs), utcDate(Date.now())],
    'one column per UTC day, oldest first',
  );
  const todayCost = all.filter((row) => row.model === 'gpt-4o').reduce((sum, row) => sum + row.cost_usd * 1e6, 0);
  assert.equal(
    await page.locator(`[data-chart="per-day"] [data-day="${utcDate(Date.now())}"]`).getAttribute('aria-label'),
    `${utcDate(Date.now())}: ${usdText(Math.round(todayCost) / 1e6)}, 2 calls`,
  );
  await page.screenshot({ path: path.join(screenshotDir, 'dashboard-usage-1280.png'), fullPage: true });
});

test('filters by model, key and date narrow the table and the charts; an empty range says so', async () => {
  const all = await readUsage();
  const claude = all.filter((row) => row.model === 'claude-haiku-4-5');
  const gpt = all.filter((row) => row.model === 'gpt-4o');

  await applyFilter({ model: 'claude-haiku-4-5' });
  await waitForRows(claude);
  assert.deepEqual(await readModelBars(), expectedModelBars(claude));

  await applyFilter({ keyId: betaKeyId });
  await waitForRows(claude);
  assert.deepEqual(
    await usageRows().evaluateAll((rows) => rows.map((row) => row.children[2]?.textContent)),
    ['beta'],
    'the key column names the key',
  );

  await applyFilter({ from: utcDate(Date.now()) });
  await waitForRows(gpt);
  assert.deepEqual(await readModelBars(), expectedModelBars(gpt));
  assert.equal(await page.locator('[data-chart="per-day"] [data-day]').count(), 1);

  const threeDaysAgo = utcDate(Date.now() - 3 * dayMs);
  await applyFilter({ from: threeDaysAgo, to: threeDaysAgo });
  await waitForRows(claude);

  await applyFilter({ from: utcDate(Date.now() + dayMs) });
  await usagePanel().getByText('No calls in this range.').waitFor();
  await usagePanel().getByText('Nothing to chart in this range.').waitFor();
  assert.equal(await usageRows().count(), 0);
});

test('the CSV download holds exactly the filtered calls, with exact costs', async () => {
  const gpt = (await readUsage()).filter((row) => row.model === 'gpt-4o');
  await applyFilter({ model: 'gpt-4o' });
  await waitForRows(gpt);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    usagePanel().getByRole('link', { name: 'Download CSV' }).click(),
  ]);
  assert.equal(download.suggestedFilename(), 'usage.csv');
  const savedPath = path.join(screenshotDir, '..', 'usage-download.csv');
  await download.saveAs(savedPath);
  const lines = readFileSync(savedPath, 'utf8').trimEnd().split('\r\n');
  const header = (lines[0] ?? '').split(',');
  assert.equal(lines.length, 1 + gpt.length, 'a header and one line per filtered call');
  const column = (name: string) => header.indexOf(name);
  const records = lines.slice(1).map((line) => line.split(','));
  assert.deepEqual(
    records.map((record) => record[column('request_id')]).sort(),
    gpt.map((row) => row.request_id).sort(),
  );
  for (const record of records) {
    const row = gpt.find((candidate) => candidate.request_id === record[column('request_id')]);
    assert.equal(record[column('model')], 'gpt-4o');
    assert.equal(record[column('key_name')], 'alpha');
    assert.equal(record[column('cost_usd')], row?.cost_usd.toFixed(6), 'the cost to the micro-dollar');
  }
  await applyFilter({});
});

test('a plan bought from the balance shows as active; with auto-renewal on it renews when its period ends', async () => {
  const created = await callApi(gateway.url, '/api/operator/plans', {
    body: { name: 'Pro', price_usd: '5', discount_percent: 20 },
    session: operator,
  });
  assert.equal(created.status, 201, created.text);
  const plan = created.json as SubscriptionPlan;
  const balanceBefore = await readBalanceMicros();
  await page.reload();
  const panel = page.locator('[data-panel="subscription"]');
  await panel.getByText('No subscription.', { exact: false }).waitFor();
  const row = panel.locator(`[data-plan-id="${plan.id}"]`);
  assert.match((await row.textContent()) ?? '', /Pro — 20% off every model for 30 days/);

  await row.getByRole('button', { name: 'Buy for $5.00' }).click();
  await panel.getByText('Done: the subscription is active.').waitFor();
  const bought = await readSubscription();
  assert.ok(bought.subscription?.is_active);
  assert.equal(bought.subscription.is_auto_renewing, false, 'a purchase does not renew unless asked');
  assert.match((await panel.textContent()) ?? '', /Pro: 20% off every model until/);
  await row.getByRole('button', { name: 'Extend for $5.00' }).waitFor();
  assert.equal(await readBalanceMicros(), balanceBefore - 5_000_000, 'the price came off the balance once');
  await page
    .locator('[data-amount="balance"]')
    .getByText(usdText((balanceBefore - 5_000_000) / 1e6), { exact: true })
    .waitFor();

  const autoRenew = panel.getByLabel('Renew automatically from the balance');
  assert.equal(await autoRenew.isChecked(), false);
  await autoRenew.check();
  await page.waitForFunction(async () => {
    const answer = (await (await fetch('/api/subscription')).json()) as AccountSubscription;
    return answer.subscription?.is_auto_renewing === true;
  });

  // The period ends; the renewal pass (it also runs every minute) takes the next period from the balance.
  await gateway.gateway.database.db
    .updateTable('subscriptions')
    .set({ expires_at: Date.now() - 1000 })
    .execute();
  const renewal = await callApi(gateway.url, '/api/operator/subscriptions/renew', { body: {}, session: operator });
  assert.deepEqual(renewal.json, { renewed: 1, failed: 0 }, renewal.text);
  await page.reload();
  await panel.getByText('Pro: 20% off every model until', { exact: false }).waitFor();
  const renewed = await readSubscription();
  assert.ok(renewed.subscription?.is_active);
  assert.ok(Date.parse(renewed.subscription.expires_at) > Date.now() + 29 * dayMs, 'a new 30-day period');
  assert.equal(renewed.subscription.is_auto_renewing, true);
  assert.equal(await panel.getByLabel('Renew automatically from the balance').isChecked(), true);
  assert.equal(await readBalanceMicros(), balanceBefore - 10_000_000, 'the renewal was paid once');
  await page.screenshot({ path: path.join(screenshotDir, 'dashboard-subscription-1280.png'), fullPage: true });

  await autoRenew.uncheck();
  await page.waitForFunction(async () => {
    const answer = (await (await fetch('/api/subscription')).json()) as AccountSubscription;
    return answer.subscription?.is_auto_renewing === false;
  });
});

test('Russian on a phone: the dashboard fits 375 px', async () => {
  const phone = await browser.openPage({ width: 375, height: 812 });
  await phone.goto(`${gateway.url}/dashboard`);
  await phone.getByRole('radio', { name: 'Русский' }).check();
  await phone.getByRole('heading', { level: 1, name: 'Личный кабинет' }).waitFor();
  await phone.locator('table[data-table="usage"] tr[data-request-id]').first().waitFor();
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  const widest = await phone.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
  );
  assert.ok(overflow <= 0, `no sideways scrolling (${overflow} px): ${widest.join(', ')}`);
  await phone.screenshot({ path: path.join(screenshotDir, 'dashboard-ru-375.png'), fullPage: true });
  await phone.getByRole('radio', { name: 'English' }).check();
  await phone.close();
});

test('an account created outside the website is greeted with its welcome balance on its first sign-in only', async () => {
  const outsider = 'made-by-the-cli@example.com';
  await gateway.createUserWithKey({ email: outsider, balanceMicros: 3_000_000 });
  const other = await launchBrowser();
  try {
    const signInPage = await other.openPage();
    const signInThroughTheForm = async () => {
      await signInPage.goto(`${gateway.url}/sign-in`);
      await signInPage.getByLabel('E-mail').fill(outsider);
      await signInPage.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
      const answer = signInPage.waitForResponse((response) => response.url().endsWith('/api/auth/login'));
      await signInPage.getByRole('button', { name: 'Sign in' }).click();
      const me = (await (await answer).json()) as { is_first_session: boolean };
      await signInPage.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      await signInPage.locator('[data-amount="balance"]').waitFor();
      return me.is_first_session;
    };
    assert.equal(await signInThroughTheForm(), true, 'the first sign-in is the first session');
    assert.match(
      (await signInPage.locator('[data-welcome]').textContent()) ?? '',
      new RegExp(`welcome balance of \\${usdText(3)}`),
    );
    await signInPage.reload();
    await signInPage.locator('[data-amount="balance"]').waitFor();
    assert.equal(await signInPage.locator('[data-welcome]').count(), 0, 'a reload does not greet again');

    await signInPage.getByRole('button', { name: 'Sign out' }).click();
    await signInPage.getByRole('link', { name: 'Sign in' }).first().waitFor();
    assert.equal(await signInThroughTheForm(), false, 'a later sign-in is not the first');
    assert.equal(await signInPage.locator('[data-welcome]').count(), 0, 'and is not greeted');
    assert.deepEqual(other.pageErrors, []);
  } finally {
    await other.close();
  }
});

test('no page threw a script error', () => {
  assert.deepEqual(browser.pageErrors, []);
});

/** The balance in integer micro-dollars (the API's USD numbers are exact micro-dollar amounts). */
async function readBalanceMicros(): Promise<number> {
  const balance = await page.evaluate(
    async () => ((await (await fetch('/api/balance')).json()) as { balance_usd: number }).balance_usd,
  );
  return Math.round(balance * 1e6);
}

async function readSubscription(): Promise<AccountSubscription> {
  return page.evaluate(async () => (await (await fetch('/api/subscription')).json()) as AccountSubscription);
}
