import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestGateway, type TestGateway } from '../../../server/test/support/start-test-gateway.ts';
import { assertWebAppBuilt, launchBrowser, type TestBrowser } from './support/launch-browser.ts';

/**
 * The operator console's Outbox tab in a real browser: with no SMTP server configured (sandbox), it says plainly that
 * mail is not being sent and lists the kept mail, text only.
 */

let gateway: TestGateway;
let browser: TestBrowser;
const operatorEmail = `outbox-operator-${Date.now()}@example.com`;
const customerEmail = `outbox-customer-${Date.now()}@example.com`;

before(async () => {
  assertWebAppBuilt();
  gateway = await startTestGateway();
  await gateway.createUserWithKey({ role: 'admin', email: operatorEmail });
  await gateway.createUserWithKey({ email: customerEmail });
  const forgot = await fetch(`${gateway.url}/api/auth/forgot-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: customerEmail }),
  });
  assert.equal(forgot.status, 204, await forgot.text());
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

test('the Outbox tab says mail is not being sent and shows the kept reset mail', async () => {
  const page = await browser.openPage();
  await page.goto(`${gateway.url}/operator`);
  await page.getByRole('tab', { name: 'Outbox' }).click();
  const panel = page.locator('[data-panel="outbox"]');
  assert.match((await panel.locator('[data-delivery]').textContent()) ?? '', /Mail is NOT being sent/);
  await panel.getByLabel('Recipient').fill(customerEmail);
  await panel.getByRole('button', { name: 'Search' }).click();
  const row = panel.locator('tr[data-mail-id]').filter({ hasText: customerEmail });
  await row.waitFor();
  await row.locator('summary').click();
  assert.match((await row.locator('pre').textContent()) ?? '', /\/reset-password/);
  assert.equal(await panel.locator('tr[data-mail-id]').count(), 1, 'only the mail to that recipient');
});
