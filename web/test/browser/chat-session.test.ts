import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestGateway, type TestGateway } from '../../../server/test/support/start-test-gateway.ts';
import {
  readUsage,
  screenshotFitting,
  sendMessage,
  setUpChat,
  signInAndOpenDashboard,
  testPassword,
  unlockChat,
} from './support/chat-page.ts';
import { assertWebAppBuilt, launchBrowser, type TestBrowser } from './support/launch-browser.ts';
import { usdText } from './support/usd-text.ts';

/**
 * The browser chat around its conversations, in a real browser against a real gateway (sandbox mode, fresh SQLite):
 * an expired session sends the user to sign in and keeps the draft and an unsaved exchange, web-search answers cite
 * their sources, and the dashboard and chat in Russian and on a 375 px phone.
 */

let gateway: TestGateway;
let browser: TestBrowser;
let page: Page;
const email = `chat-session-user-${Date.now()}@example.com`;
const password = testPassword;
const passphrase = 'purple elephant umbrella 42';

before(async () => {
  assertWebAppBuilt();
  gateway = await startTestGateway();
  browser = await launchBrowser();
  page = await browser.openPage();
  await gateway.createUserWithKey({ email });
  await signInAndOpenDashboard({ browser, page, siteUrl: gateway.url, email });
  // One saved conversation to come back to.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Chat' }).click();
  await setUpChat(page, passphrase);
  await sendMessage(page, 'A first conversation');
  await page.locator('article[data-role="assistant"][data-status="complete"]').waitFor();
  await page.locator('[data-save-state="saved"]').waitFor();
});

after(async () => {
  await browser?.close();
  await gateway?.close();
});

const db = () => gateway.gateway.database.db;

test('an expired session sends the user to sign-in and the draft survives', async () => {
  await page.getByRole('button', { name: 'New conversation' }).click();
  const draft = 'A draft I do not want to lose';
  await page.getByLabel('Message', { exact: true }).fill(draft);
  await db().updateTable('sessions').set({ revoked_at: Date.now() }).execute();
  await page.getByRole('button', { name: 'Lock' }).click();
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  assert.match((await page.getByRole('status').first().textContent()) ?? '', /session has ended/);
  assert.equal(new URL(page.url()).searchParams.get('next'), '/chat');
  await screenshotFitting(page, 'sign-in-session-ended');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('wrong password here');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').filter({ hasText: 'Incorrect e-mail or password' }).waitFor();
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Unlock your chat history' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/chat');
  await unlockChat(page, passphrase);
  assert.equal(await page.getByLabel('Message', { exact: true }).inputValue(), draft);

  // The session ends again while the message is sent: the exchange cannot be saved, and is saved after signing in.
  await page.locator('[data-conversation-id]').first().waitFor();
  await db().updateTable('sessions').set({ revoked_at: Date.now() }).execute();
  const refusedSave = page.waitForResponse(
    (response) => response.url().includes('/api/chats/conversations/') && response.status() === 401,
  );
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  await refusedSave;
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await unlockChat(page, passphrase);
  const restored = page.locator('[data-conversation-id]').filter({ hasText: draft });
  await restored.waitFor();
  const restoredId = (await restored.getAttribute('data-conversation-id')) ?? '';
  await page.waitForFunction(async (id) => (await fetch(`/api/chats/conversations/${id}`)).status === 200, restoredId);
  await restored.locator('.chat-sidebar__title').click();
  await page.locator('article[data-role="user"]').filter({ hasText: draft }).waitFor();
});

test('web search answers carry numbered, clickable citations', async () => {
  await page.getByLabel('Web search').check();
  await sendMessage(page, 'What is new in the web search world?');
  const answer = page.locator('article[data-role="assistant"][data-status="complete"]').last();
  // A search round and a model round: in the whole test run, beside the fuzz and fault suites, 30 s was not enough.
  await answer.locator('[data-cost]').waitFor({ timeout: 90_000 });
  const links = answer.locator('a[data-citation]');
  assert.ok((await links.count()) > 0, 'at least one citation');
  for (const href of await links.evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')))) {
    assert.match(href ?? '', /^https?:\/\//);
  }
  assert.equal(await answer.locator('.message__sources ol > li').count(), await links.count(), 'numbered list');
  assert.equal(await links.first().getAttribute('target'), '_blank');
  const call = (await readUsage(page)).data.find((row) => row.endpoint === 'responses');
  assert.ok(call, 'billed through /v1/responses');
  assert.equal(await answer.locator('[data-cost]').textContent(), usdText(call.cost_usd));
});

test('Russian: the dashboard and chat switch language; every page fits a 375 px phone', async () => {
  await page.getByRole('radio', { name: 'Русский' }).check();
  await page.getByRole('button', { name: 'Отправить' }).waitFor();
  assert.equal(await page.locator('html').getAttribute('lang'), 'ru');
  await page.getByRole('navigation').getByRole('link', { name: 'Кабинет' }).click();
  await page.getByRole('heading', { level: 1, name: 'Личный кабинет' }).waitFor();
  await page.getByRole('heading', { name: 'API-ключи' }).waitFor();
  await screenshotFitting(page, 'dashboard-ru');
  await page.getByRole('radio', { name: 'English' }).check();

  const phone = await browser.openPage({ width: 375, height: 812 });
  for (const [name, pagePath, ready] of [
    ['dashboard', '/dashboard', '[data-amount="balance"]'],
    ['chat-unlock', '/chat', 'input[type="password"]'],
    ['chat-encryption', '/chat/encryption', 'h1'],
    ['sign-up', '/sign-up', 'h1'],
  ] as const) {
    await phone.goto(`${gateway.url}${pagePath}`);
    await phone.locator(ready).first().waitFor();
    await screenshotFitting(phone, name);
  }
  await phone.goto(`${gateway.url}/chat`);
  await phone.getByLabel('Passphrase', { exact: true }).fill(passphrase);
  await phone.getByRole('button', { name: 'Unlock' }).click();
  await phone.locator('[data-conversation-id] .chat-sidebar__title').first().click();
  await phone.locator('article[data-role="assistant"]').first().waitFor();
  await screenshotFitting(phone, 'chat');
  await phone.close();
  const desktop = await browser.openPage();
  await desktop.goto(`${gateway.url}/chat/encryption`);
  await desktop.getByRole('heading', { level: 1, name: 'What is encrypted, and what is not' }).waitFor();
  await screenshotFitting(desktop, 'chat-encryption');
  await desktop.close();
});

test('no page threw a script error', () => {
  // A refused request (the 401 that ends a session, a wrong password) is logged by the browser itself; it is expected.
  assert.deepEqual(
    browser.pageErrors.filter((error) => !error.includes('Failed to load resource')),
    [],
  );
});
