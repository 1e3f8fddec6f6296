import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestGateway, type TestGateway } from '../../../server/test/support/start-test-gateway.ts';
import { readLink, startTestSmtpServer, type TestSmtpServer } from '../../../server/test/support/test-smtp-server.ts';
import { assertWebAppBuilt, launchBrowser, type TestBrowser } from './support/launch-browser.ts';
import { usdText } from './support/usd-text.ts';

/**
 * The e-mail walk in a real browser against a real gateway with a real SMTP server on loopback, the proof of work
 * on: sign up (the page solves the challenge) → mail → verify → welcome balance; forgot password → mail → reset →
 * sign in with the new password.
 */

let smtp: TestSmtpServer;
let gateway: TestGateway;
let browser: TestBrowser;
let page: Page;
const email = `walk-${Date.now()}@example.com`;
const password = 'correct horse battery staple';
const newPassword = 'another fine passphrase';

before(async () => {
  assertWebAppBuilt();
  smtp = await startTestSmtpServer();
  gateway = await startTestGateway({
    environment: {
      ...smtp.environment,
      SIGNUP_ABUSE_CHECKS: 'on',
      SIGNUP_CHALLENGE_MAX_NUMBER: '5000',
      WELCOME_BALANCE_AT: 'verification',
    },
  });
  browser = await launchBrowser();
  page = await browser.openPage();
});

after(async () => {
  await browser?.close();
  await gateway?.close();
  await smtp?.close();
});

/** The page of a mailed link on this gateway (the link names the configured public address). */
const onGateway = (link: URL) => `${gateway.url}${link.pathname}${link.search}`;

test('sign up → verification mail → the link confirms the address and credits the welcome balance', async () => {
  await page.goto(`${gateway.url}/sign-up`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  await page.locator('[data-amount="balance"]').waitFor();
  assert.equal(await page.locator('[data-amount="balance"]').textContent(), usdText(0));

  const mail = await smtp.waitForMail(email, { timeoutMs: 10_000 });
  assert.equal(mail.subject, 'Confirm your e-mail address');
  await page.goto(onGateway(readLink(mail, '/verify-email')));
  const confirmed = page.getByRole('status').filter({ hasText: 'Your address is confirmed.' });
  await confirmed.waitFor();
  assert.match((await confirmed.textContent()) ?? '', /welcome balance of 1\.00 USD/);
  await page.getByRole('link', { name: 'Go to the dashboard' }).click();
  await page.locator('[data-amount="balance"]').waitFor();
  assert.equal(await page.locator('[data-amount="balance"]').textContent(), usdText(1));

  await page.goto(onGateway(readLink(mail, '/verify-email')));
  await page.getByRole('alert').filter({ hasText: 'This link was already used.' }).waitFor();
});

test('forgot password → reset mail → a new password; the old one stops working', async () => {
  await browser.context.clearCookies();
  await page.goto(`${gateway.url}/sign-in`);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.getByRole('heading', { level: 1, name: 'Reset your password' }).waitFor();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await page.getByRole('status').filter({ hasText: 'If an account has this address' }).waitFor();

  const mail = await smtp.waitForMail(email, { timeoutMs: 10_000 });
  assert.equal(mail.subject, 'Reset your password');
  await page.goto(onGateway(readLink(mail, '/reset-password')));
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByLabel('Repeat the password').fill(newPassword);
  await page.getByRole('button', { name: 'Set the password' }).click();
  await page.getByRole('status').filter({ hasText: 'Your password is set.' }).waitFor();

  await page.getByRole('link', { name: 'Sign in' }).last().click();
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).last().click();
  await page.getByRole('alert').waitFor();
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Sign in' }).last().click();
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
});
