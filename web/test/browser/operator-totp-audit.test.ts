import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { generateSync } from 'otplib';
import { startTestGateway, type TestGateway } from '../../../server/test/support/start-test-gateway.ts';
import { assertWebAppBuilt, launchBrowser, screenshotDir, type TestBrowser } from './support/launch-browser.ts';

/**
 * The browser walk of the operator's second factor and the audit log, against a real gateway that requires it: the
 * operator enrols with the QR page and its first code, signs in again with a fresh code, changes a price, and finds
 * the change in the console's audit log.
 */

let gateway: TestGateway;
let browser: TestBrowser;
const operatorEmail = 'totp-walk-operator@example.com';

const signInWithPassword = async () => {
  const login = await browser.context.request.post(`${gateway.url}/api/auth/login`, {
    data: { email: operatorEmail, password: 'correct horse battery staple' },
  });
  assert.equal(login.status(), 200, await login.text());
};

const codeAt = (secret: string, offsetSeconds: number) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

before(async () => {
  assertWebAppBuilt();
  gateway = await startTestGateway({ environment: { REQUIRE_OPERATOR_TOTP: 'true' } });
  await gateway.createUserWithKey({ role: 'admin', email: operatorEmail });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await gateway?.close();
});

test('an operator enrols a second factor, signs in with it, and sees a price change in the audit log', async () => {
  await signInWithPassword();
  const page = await browser.openPage();
  await page.goto(`${gateway.url}/operator`);
  await page.getByRole('button', { name: 'Show the QR code' }).click();
  await page.locator('img.totp-qr').waitFor();
  const secret = (await page.locator('[data-field="totp-secret"]').textContent()) ?? '';
  assert.match(secret, /^[A-Z2-7]{16,}$/);
  await page.screenshot({ path: path.join(screenshotDir, 'operator-totp-enrolment.png') });
  await page.locator('input[name="totp-code"]').fill(codeAt(secret, 0));
  await page.getByRole('button', { name: 'Turn on' }).click();
  const codes = page.locator('[data-field="recovery-codes"] li');
  await codes.first().waitFor();
  assert.equal(await codes.count(), 10);
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await page.getByRole('tab', { name: 'Users' }).waitFor();

  await browser.context.clearCookies();
  await signInWithPassword();
  await page.goto(`${gateway.url}/operator`);
  await page.getByRole('heading', { name: 'Second factor' }).waitFor();
  assert.equal(await page.getByRole('tab', { name: 'Users' }).count(), 0, 'no console before the code');
  await page.locator('input[name="totp-code"]').fill(codeAt(secret, 30));
  await page.getByRole('button', { name: 'Continue' }).click();

  await page.getByRole('tab', { name: 'Prices' }).click();
  await page.locator('select[name="model"]').selectOption('gpt-4o-mini');
  await page.locator('input[name="input"]').fill('0.33');
  await page.locator('input[name="reason"]').fill('browser walk');
  await page.getByRole('button', { name: 'Save price (effective now)' }).click();
  await page.getByText('browser walk').first().waitFor();

  await page.getByRole('tab', { name: 'Audit log' }).click();
  const row = page.locator('table[data-table="audit"] tr[data-action="setModelPrice"]').first();
  await row.waitFor();
  const rowText = (await row.textContent()) ?? '';
  assert.match(rowText, /gpt-4o-mini/);
  assert.match(rowText, new RegExp(operatorEmail.replace('.', '\\.')));
  assert.match(rowText, /"input_usd_per_million":0\.33/);
  await page.screenshot({ path: path.join(screenshotDir, 'operator-audit-log.png') });
  assert.deepEqual(browser.pageErrors, []);
});
