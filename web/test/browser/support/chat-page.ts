import assert from 'node:assert/strict';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { UsagePage } from '../../../../contract/usage.ts';
import { screenshotDir, type TestBrowser } from './launch-browser.ts';

/** The password every test account is created with (`startTestGateway().createUserWithKey`). */
export const testPassword = 'correct horse battery staple';

/** Fails on sideways overflow, then saves `<name>-<width>.png` (the whole page on a phone). */
export async function screenshotFitting(target: Page, name: string): Promise<void> {
  const widths = await target.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  assert.ok((widths[0] ?? 0) <= (widths[1] ?? 0), `${name}: no sideways overflow (${widths.join(' > ')})`);
  const width = target.viewportSize()?.width ?? 0;
  await target.screenshot({ path: path.join(screenshotDir, `${name}-${width}.png`), fullPage: width < 500 });
}

/** Signs the browser in as `email` (the session cookie serves every page of the context) and opens the dashboard. */
export async function signInAndOpenDashboard(input: {
  browser: TestBrowser;
  page: Page;
  siteUrl: string;
  email: string;
}): Promise<void> {
  const login = await input.browser.context.request.post(`${input.siteUrl}/api/auth/login`, {
    data: { email: input.email, password: testPassword },
  });
  assert.equal(login.status(), 200, await login.text());
  await input.page.goto(`${input.siteUrl}/dashboard`);
  await input.page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
}

/** The account's calls as the usage API reports them, read with the page's own session. */
export function readUsage(page: Page): Promise<UsagePage> {
  return page.evaluate(async () => (await fetch('/api/usage?limit=50')).json() as Promise<UsagePage>);
}

export async function sendMessage(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

export async function unlockChat(page: Page, passphrase: string): Promise<void> {
  await page.getByLabel('Passphrase', { exact: true }).fill(passphrase);
  await page.getByRole('button', { name: 'Unlock' }).click();
}

/** Chooses the chat passphrase on a new account's first visit to the chat; the message box is then ready. */
export async function setUpChat(page: Page, passphrase: string): Promise<void> {
  await page.getByLabel('Passphrase', { exact: true }).fill(passphrase);
  await page.getByLabel('Repeat the passphrase').fill(passphrase);
  await page.getByRole('button', { name: 'Encrypt my history' }).click();
  await page.getByLabel('Message', { exact: true }).waitFor();
}
