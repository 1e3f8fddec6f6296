import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { UsagePage } from '../../../contract/usage.ts';
import { startTestGateway, type TestGateway } from '../../../server/test/support/start-test-gateway.ts';
import {
  readUsage,
  screenshotFitting,
  sendMessage,
  setUpChat,
  signInAndOpenDashboard,
  unlockChat,
} from './support/chat-page.ts';
import { startCuttingProxy, type CuttingProxy } from './support/cutting-proxy.ts';
import { assertWebAppBuilt, launchBrowser, type TestBrowser } from './support/launch-browser.ts';
import { usdText } from './support/usd-text.ts';

/**
 * The encrypted browser chat in a real browser against a real gateway (sandbox mode, fresh SQLite): a streamed
 * answer with its cost, regenerate, Stop, an interrupted stream, the history after a reload and unlock, rename and
 * search, and deletion that leaves no plaintext and no ciphertext. An expired session, web search and Russian are in
 * chat-session.test.ts.
 */

let gateway: TestGateway;
/** The browser reaches the site through this proxy, which can cut a streamed answer's connection mid-stream. */
let proxy: CuttingProxy;
let browser: TestBrowser;
let page: Page;
const passphrase = 'purple elephant umbrella 42';
const marker = `zebra-marker-${Date.now()}`;
/** What had arrived of the answer whose connection the proxy cut. */
let partialAnswer = '';

before(async () => {
  assertWebAppBuilt();
  gateway = await startTestGateway();
  proxy = await startCuttingProxy(new URL(gateway.url));
  browser = await launchBrowser();
  page = await browser.openPage();
  const email = `chat-user-${Date.now()}@example.com`;
  await gateway.createUserWithKey({ email });
  await signInAndOpenDashboard({ browser, page, siteUrl: proxy.url, email });
});

after(async () => {
  await browser?.close();
  await proxy?.close();
  await gateway?.close();
});

const db = () => gateway.gateway.database.db;

const assistantMessages = () => page.locator('article[data-role="assistant"]');

test('the chat streams an answer with its tokens and cost, regenerates, and Stop bills only what was generated', async () => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Chat' }).click();
  await page.getByRole('heading', { name: 'Choose a chat passphrase' }).waitFor();
  await screenshotFitting(page, 'chat-set-up');
  const phone = await browser.openPage({ width: 375, height: 812 });
  await phone.goto(`${proxy.url}/chat`);
  await phone.getByRole('heading', { name: 'Choose a chat passphrase' }).waitFor();
  await screenshotFitting(phone, 'chat-set-up');
  await phone.close();
  await setUpChat(page, passphrase);
  const modelId = await page.getByLabel('Model').inputValue();
  assert.ok(modelId, 'a model is picked');
  assert.match(
    (await page.getByLabel('Model').locator('option:checked').textContent()) ?? '',
    /\$[\d.]+ in \/ \$[\d.]+ out per 1M tokens/,
  );

  await sendMessage(page, `Tell me about ${marker} please`);
  const first = assistantMessages().first();
  await page.locator('article[data-role="assistant"][data-status="complete"] [data-cost]').waitFor();
  const usage = await readUsage(page);
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

  await sendMessage(page, '[sim:words=400] Write a long story');
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
  const interrupted = (await readUsage(page)).data.find((row) => row.status === 'interrupted');
  assert.ok(interrupted, 'the stopped call is recorded as interrupted');
  assert.ok(
    interrupted.output_tokens > 0 && interrupted.output_tokens < 400,
    `billed ${interrupted.output_tokens} of 400 tokens`,
  );
  assert.equal(await stopped.locator('[data-cost]').textContent(), usdText(interrupted.cost_usd));
  await page.locator('[data-conversation-total]').waitFor();
  await screenshotFitting(page, 'chat');
});

test('a dropped connection keeps the partial answer, marked interrupted', async () => {
  // The proxy lets the answer stream until ten content chunks have passed, holds it, then resets the connection.
  const held = proxy.holdNextResponse({
    requestLine: 'POST /v1/chat/completions ',
    isEnough: (responseText) => responseText.split('"content":"').length > 10,
  });
  const interruptedBefore = new Set(
    (await readUsage(page)).data.filter((row) => row.status === 'interrupted').map((row) => row.request_id),
  );
  await sendMessage(page, '[sim:words=400] This one will be cut');
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
    record = (await readUsage(page)).data.find(
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
  await screenshotFitting(page, 'chat-unlock');
  await unlockChat(page, 'not my passphrase at all');
  await page.getByRole('alert').filter({ hasText: 'Wrong passphrase' }).waitFor();
  assert.deepEqual(await db().selectFrom('chat_vaults').selectAll().execute(), vaultBefore, 'nothing changed');
  await unlockChat(page, passphrase);
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
  await sendMessage(page, 'A second, unrelated conversation');
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
