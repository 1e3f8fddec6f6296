import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { UsagePage } from '../../../contract/usage.ts';
import { startTestGateway, type TestGateway } from '../../../server/test/support/start-test-gateway.ts';
import { startCuttingProxy, type CuttingProxy } from './support/cutting-proxy.ts';
import { assertWebAppBuilt, launchBrowser, screenshotDir, type TestBrowser } from './support/launch-browser.ts';
import { usdText } from './support/usd-text.ts';

/**
 * The account pages and the encrypted browser chat in a real browser against a real gateway (sandbox mode, fresh
 * SQLite): sign-up with the welcome balance, a key shown once and copied, a streamed answer with its cost, Stop,
 * an interrupted stream, the history after a reload and unlock, deletion that leaves no plaintext and no
 * ciphertext, an expired session that keeps the draft, web-search citations, and Russian.
 */

let gateway: TestGateway;
/** The browser reaches the site through this proxy, which can cut a streamed answer's connection mid-stream. */
let proxy: CuttingProxy;
let browser: TestBrowser;
let page: Page;
const email = `chat-user-${Date.now()}@example.com`;
const password = 'correct horse battery staple';
const passphrase = 'purple elephant umbrella 42';
const marker = `zebra-marker-${Date.now()}`;
/** What had arrived of the answer whose connection the proxy cut. */
let partialAnswer = '';

before(async () => {
  assertWebAppBuilt();
  gateway = await startTestGateway();
  proxy = await startCuttingProxy(new URL(gateway.url));
  browser = await launchBrowser();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: proxy.url });
  page = await browser.openPage();
});

after(async () => {
  await browser?.close();
  await proxy?.close();
  await gateway?.close();
});

const db = () => gateway.gateway.database.db;

async function screenshot(name: string, target: Page = page): Promise<void> {
  const widths = await target.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  assert.ok((widths[0] ?? 0) <= (widths[1] ?? 0), `${name}: no sideways overflow (${widths.join(' > ')})`);
  const width = target.viewportSize()?.width ?? 0;
  await target.screenshot({ path: path.join(screenshotDir, `${name}-${width}.png`), fullPage: width < 500 });
}

/** The account's calls as the usage API reports them, read with the page's own session. */
function readUsage(): Promise<UsagePage> {
  return page.evaluate(async () => (await fetch('/api/usage?limit=50')).json() as Promise<UsagePage>);
}

const assistantMessages = () => page.locator('article[data-role="assistant"]');

async function send(text: string): Promise<void> {
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

async function unlock(secret: string): Promise<void> {
  await page.getByLabel('Passphrase', { exact: true }).fill(secret);
  await page.getByRole('button', { name: 'Unlock' }).click();
}

test('sign-up refuses weak and mismatched passwords, then shows the welcome balance', async () => {
  await page.goto(`${proxy.url}/sign-up`);
  await page.getByRole('heading', { level: 1, name: 'Create an account' }).waitFor();
  await screenshot('sign-up');
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
  assert.match((await page.locator('[data-panel="top-up"]').textContent()) ?? '', /not available yet/);
  assert.equal(await page.locator('[data-panel="top-up"] input, [data-panel="top-up"] form').count(), 0);
  await screenshot('dashboard');
});

test('a new key is shown once with a warning and copied; the list shows only its prefix and last four', async () => {
  await page.getByLabel('Name', { exact: true }).fill('laptop');
  await page.getByLabel('Spend cap, USD (optional)').fill('2.5');
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

test('the chat streams an answer with its tokens and cost, regenerates, and Stop bills only what was generated', async () => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Chat' }).click();
  await page.getByRole('heading', { name: 'Choose a chat passphrase' }).waitFor();
  await screenshot('chat-set-up');
  const phone = await browser.openPage({ width: 375, height: 812 });
  await phone.goto(`${proxy.url}/chat`);
  await phone.getByRole('heading', { name: 'Choose a chat passphrase' }).waitFor();
  await screenshot('chat-set-up', phone);
  await phone.close();
  await page.getByLabel('Passphrase', { exact: true }).fill(passphrase);
  await page.getByLabel('Repeat the passphrase').fill(passphrase);
  await page.getByRole('button', { name: 'Encrypt my history' }).click();
  await page.getByLabel('Message', { exact: true }).waitFor();
  const modelId = await page.getByLabel('Model').inputValue();
  assert.ok(modelId, 'a model is picked');
  assert.match(
    (await page.getByLabel('Model').locator('option:checked').textContent()) ?? '',
    /\$[\d.]+ in \/ \$[\d.]+ out per 1M tokens/,
  );

  await send(`Tell me about ${marker} please`);
  const first = assistantMessages().first();
  await page.locator('article[data-role="assistant"][data-status="complete"] [data-cost]').waitFor();
  const usage = await readUsage();
  const call = usage.data.find((row) => row.status === 'completed');
  assert.ok(call, 'the call is in the usage records');
  assert.equal(call.key_name, 'browser chat', 'billed through the session’s chat key');
  assert.equal(await first.locator('[data-cost]').textContent(), usdText(call.cost_usd));
  assert.match(
    (await first.locator('[data-usage]').textContent()) ?? '',
    new RegExp(`${call.input_tokens} in · ${call.output_tokens} out`),
  );
  await page.locator('[data-save-state="saved"]').waitFor();

  await page.getByRole('button', { name: 'Regenerate' }).click();
  await page.waitForFunction(async () => {
    const answer = await (await fetch('/api/usage?limit=50')).json();
    return (answer as { data: unknown[] }).data.length === 2;
  });
  await page.locator('article[data-role="assistant"][data-status="complete"] [data-cost]').waitFor();
  assert.equal(await assistantMessages().count(), 1, 'regenerate replaces the answer');

  await send('[sim:words=400] Write a long story');
  const streaming = page.locator('article[data-status="streaming"]');
  await page.waitForFunction(
    () => (document.querySelector('article[data-status="streaming"]')?.textContent ?? '').split(' ').length > 15,
  );
  await page.getByRole('button', { name: 'Stop' }).click();
  await streaming.waitFor({ state: 'detached' });
  const stopped = page.locator('article[data-role="assistant"][data-status="stopped"]');
  await stopped.waitFor();
  assert.match((await stopped.textContent()) ?? '', /billed only for what was generated/);
  await stopped.locator('[data-cost]').waitFor();
  const interrupted = (await readUsage()).data.find((row) => row.status === 'interrupted');
  assert.ok(interrupted, 'the stopped call is recorded as interrupted');
  assert.ok(
    interrupted.output_tokens > 0 && interrupted.output_tokens < 400,
    `billed ${interrupted.output_tokens} of 400 tokens`,
  );
  assert.equal(await stopped.locator('[data-cost]').textContent(), usdText(interrupted.cost_usd));
  await page.locator('[data-conversation-total]').waitFor();
  await screenshot('chat');
});

test('a dropped connection keeps the partial answer, marked interrupted', async () => {
  // The proxy lets the answer stream until ten content chunks have passed, holds it, then resets the connection.
  const held = proxy.holdNextResponse({
    requestLine: 'POST /v1/chat/completions ',
    isEnough: (responseText) => responseText.split('"content":"').length > 10,
  });
  const interruptedBefore = new Set(
    (await readUsage()).data.filter((row) => row.status === 'interrupted').map((row) => row.request_id),
  );
  await send('[sim:words=400] This one will be cut');
  await held;
  const streaming = page.locator('article[data-role="assistant"][data-status="streaming"]');
  await page.waitForFunction(
    () => (document.querySelector('article[data-status="streaming"]')?.textContent ?? '').split(' ').length > 5,
  );
  partialAnswer = ((await streaming.locator('.markdown').textContent()) ?? '').trim();
  proxy.cut();

  const cut = page.locator('article[data-role="assistant"][data-status="interrupted"]');
  await cut.waitFor();
  const shown = (await cut.locator('.markdown').textContent()) ?? '';
  assert.ok(shown.startsWith(partialAnswer), `the partial answer stays: “${shown}”`);
  assert.ok(shown.split(' ').length < 400, 'only part of the answer arrived');
  assert.match((await cut.textContent()) ?? '', /connection dropped/);
  await page.locator('[data-save-state="saved"]').waitFor();
  let record: UsagePage['data'][number] | undefined;
  for (let attempt = 0; attempt < 50 && record === undefined; attempt += 1) {
    record = (await readUsage()).data.find(
      (row) => row.status === 'interrupted' && !interruptedBefore.has(row.request_id),
    );
    if (record === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.ok(record, 'the gateway saw the client leave and recorded the call as interrupted');
  assert.ok(record.output_tokens < 400, `billed ${record.output_tokens} of 400 tokens`);
});

test('after a reload the history needs the passphrase: a wrong one says so and loses nothing', async () => {
  const vaultBefore = await db().selectFrom('chat_vaults').selectAll().execute();
  await page.reload();
  await page.getByRole('heading', { name: 'Unlock your chat history' }).waitFor();
  await screenshot('chat-unlock');
  await unlock('not my passphrase at all');
  await page.getByRole('alert').filter({ hasText: 'Wrong passphrase' }).waitFor();
  assert.deepEqual(await db().selectFrom('chat_vaults').selectAll().execute(), vaultBefore, 'nothing changed');
  await unlock(passphrase);
  const item = page.locator('[data-conversation-id]').first();
  await item.waitFor();
  assert.match((await item.textContent()) ?? '', new RegExp(`Tell me about ${marker}`));
  await item
    .getByRole('button', { name: new RegExp(marker) })
    .first()
    .click();
  await page.locator('article[data-role="user"]').filter({ hasText: marker }).waitFor();
  await page.locator('article[data-status="stopped"] [data-cost]').waitFor();
  assert.equal(await page.locator('article[data-status="interrupted"]').count(), 1, 'the interrupted answer was kept');

  await item.getByRole('button', { name: /^Rename/ }).click();
  await page.getByLabel('New title').fill('Renamed secret chat');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.locator('[data-conversation-id]').filter({ hasText: 'Renamed secret chat' }).waitFor();

  await page.getByRole('button', { name: 'New conversation' }).click();
  await send('A second, unrelated conversation');
  await page.locator('article[data-role="assistant"][data-status="complete"]').waitFor();
  await page.locator('[data-conversation-id]').nth(1).waitFor();
  await page.getByLabel('Search conversations').fill('cut');
  await page.waitForFunction(() => document.querySelectorAll('[data-conversation-id]').length === 1);
  assert.match(
    (await page.locator('[data-conversation-id]').textContent()) ?? '',
    /Renamed secret chat/,
    'found by a message',
  );
  await page.getByLabel('Search conversations').fill('');
});

test('deleting a conversation removes its ciphertext and key; no store ever held its plaintext', async () => {
  const item = page.locator('[data-conversation-id]').filter({ hasText: 'Renamed secret chat' });
  const id = (await item.getAttribute('data-conversation-id')) ?? '';
  const stored = await db().selectFrom('chat_conversations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const keys = await db().selectFrom('chat_conversation_keys').selectAll().where('conversation_id', '=', id).execute();
  assert.equal(keys.length, 1);
  // Short pieces: a long value spills onto overflow pages and is split in the file.
  const onDisk = {
    ciphertext: stored.sealed_body.slice(0, 40),
    title: stored.sealed_title.slice(0, 40),
    wrappedKey: keys[0]?.wrapped_key.slice(0, 40) ?? '',
  };
  for (const [name, piece] of Object.entries(onDisk)) {
    assert.ok(readDataFiles().includes(piece), `its ${name} is in the database files before the deletion`);
  }
  assert.ok(partialAnswer.length > 20, 'the cut answer is long enough to look for');
  for (const plaintext of [marker, 'Renamed secret chat', partialAnswer]) {
    assert.ok(!(await dumpDatabase()).includes(plaintext), `no table holds “${plaintext}”`);
    assert.ok(!readDataFiles().includes(plaintext), `no database file holds “${plaintext}”`);
  }

  page.once('dialog', (dialog) => void dialog.accept());
  await item.getByRole('button', { name: /^Delete/ }).click();
  await item.waitFor({ state: 'detached' });
  assert.equal((await db().selectFrom('chat_conversations').select('id').where('id', '=', id).execute()).length, 0);
  assert.equal(
    (
      await db()
        .selectFrom('chat_conversation_keys')
        .select('conversation_id')
        .where('conversation_id', '=', id)
        .execute()
    ).length,
    0,
  );
  const dump = await dumpDatabase();
  assert.ok(!dump.includes(stored.sealed_body.slice(0, 64)), 'its ciphertext is gone');
  assert.ok(!dump.includes(stored.sealed_title), 'its sealed title is gone');
  const files = readDataFiles();
  for (const [name, piece] of Object.entries(onDisk)) {
    assert.ok(!files.includes(piece), `its ${name} is gone from the database file and its log`);
  }
  assert.equal(await page.locator('[data-conversation-id]').count(), 1, 'the other conversation stays');
});

test('an expired session sends the user to sign-in and the draft survives', async () => {
  await page.getByRole('button', { name: 'New conversation' }).click();
  const draft = 'A draft I do not want to lose';
  await page.getByLabel('Message', { exact: true }).fill(draft);
  await db().updateTable('sessions').set({ revoked_at: Date.now() }).execute();
  await page.getByRole('button', { name: 'Lock' }).click();
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  assert.match((await page.getByRole('status').first().textContent()) ?? '', /session has ended/);
  assert.equal(new URL(page.url()).searchParams.get('next'), '/chat');
  await screenshot('sign-in-session-ended');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('wrong password here');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').filter({ hasText: 'Incorrect e-mail or password' }).waitFor();
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Unlock your chat history' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/chat');
  await unlock(passphrase);
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
  await unlock(passphrase);
  const restored = page.locator('[data-conversation-id]').filter({ hasText: draft });
  await restored.waitFor();
  const restoredId = (await restored.getAttribute('data-conversation-id')) ?? '';
  await page.waitForFunction(async (id) => (await fetch(`/api/chats/conversations/${id}`)).status === 200, restoredId);
  await restored.locator('.chat-sidebar__title').click();
  await page.locator('article[data-role="user"]').filter({ hasText: draft }).waitFor();
});

test('web search answers carry numbered, clickable citations', async () => {
  await page.getByLabel('Web search').check();
  await send('What is new in the web search world?');
  const answer = page.locator('article[data-role="assistant"][data-status="complete"]').last();
  await answer.locator('[data-cost]').waitFor();
  const links = answer.locator('a[data-citation]');
  assert.ok((await links.count()) > 0, 'at least one citation');
  for (const href of await links.evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')))) {
    assert.match(href ?? '', /^https?:\/\//);
  }
  assert.equal(await answer.locator('.message__sources ol > li').count(), await links.count(), 'numbered list');
  assert.equal(await links.first().getAttribute('target'), '_blank');
  const call = (await readUsage()).data.find((row) => row.endpoint === 'responses');
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
  await screenshot('dashboard-ru');
  await page.getByRole('radio', { name: 'English' }).check();

  const phone = await browser.openPage({ width: 375, height: 812 });
  for (const [name, pagePath, ready] of [
    ['dashboard', '/dashboard', '[data-amount="balance"]'],
    ['chat-unlock', '/chat', 'input[type="password"]'],
    ['chat-encryption', '/chat/encryption', 'h1'],
    ['sign-up', '/sign-up', 'h1'],
  ] as const) {
    await phone.goto(`${proxy.url}${pagePath}`);
    await phone.locator(ready).first().waitFor();
    await screenshot(name, phone);
  }
  await phone.goto(`${proxy.url}/chat`);
  await phone.getByLabel('Passphrase', { exact: true }).fill(passphrase);
  await phone.getByRole('button', { name: 'Unlock' }).click();
  await phone.locator('[data-conversation-id] .chat-sidebar__title').first().click();
  await phone.locator('article[data-role="assistant"]').first().waitFor();
  await screenshot('chat', phone);
  await phone.close();
  const desktop = await browser.openPage();
  await desktop.goto(`${proxy.url}/chat/encryption`);
  await desktop.getByRole('heading', { level: 1, name: 'What is encrypted, and what is not' }).waitFor();
  await screenshot('chat-encryption', desktop);
  await desktop.close();
});

test('no page threw a script error', () => {
  // A refused request (the 401 that ends a session, a wrong password) is logged by the browser itself; it is expected.
  assert.deepEqual(
    browser.pageErrors.filter((error) => !error.includes('Failed to load resource')),
    [],
  );
});

/** Every row of every table, as text. */
async function dumpDatabase(): Promise<string> {
  const tables = await db()
    .selectFrom('sqlite_master' as never)
    .select('name' as never)
    .where('type' as never, '=', 'table' as never)
    .execute();
  const rows = await Promise.all(
    tables.map((table) =>
      db()
        .selectFrom((table as { name: string }).name as never)
        .selectAll()
        .execute(),
    ),
  );
  return JSON.stringify(rows);
}

/** The raw bytes of the SQLite database and its write-ahead log, as Latin-1 text (ASCII plaintext shows as is). */
function readDataFiles(): string {
  const directory = gateway.config.dataDir;
  return readdirSync(directory)
    .filter((name) => name.includes('sqlite') || name.endsWith('.db') || name.endsWith('-wal'))
    .map((name) => readFileSync(path.join(directory, name)).toString('latin1'))
    .join('\n');
}
