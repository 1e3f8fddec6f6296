import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { BrowserChatKey, ConversationList, ConversationSummary } from '../../../contract/chats.ts';
import { callApi, readError, signUp, type BrowserSession } from '../../test/support/account-api-client.ts';
import { startTestGateway, type TestGateway } from '../../test/support/start-test-gateway.ts';
import { databaseKinds } from '../../test/support/test-databases.ts';

/** Seals text the way the browser does: AES-256-GCM, a random 12-byte nonce before the ciphertext, base64. */
async function seal(key: webcrypto.CryptoKey, text: string): Promise<string> {
  const nonce = webcrypto.getRandomValues(new Uint8Array(12));
  const ciphertext = await webcrypto.subtle.encrypt(
    { name: 'AES-GCM', iv: nonce },
    key,
    new TextEncoder().encode(text),
  );
  return Buffer.concat([nonce, new Uint8Array(ciphertext)]).toString('base64');
}

/** The raw bytes of the SQLite database file and its write-ahead log, as Latin-1 text (base64 shows as is). */
function readSqliteFiles(dataDir: string): string {
  return readdirSync(dataDir)
    .filter((name) => name.endsWith('.sqlite') || name.endsWith('.sqlite-wal'))
    .map((name) => readFileSync(path.join(dataDir, name)).toString('latin1'))
    .join('\n');
}

async function newKey(): Promise<webcrypto.CryptoKey> {
  return webcrypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt']);
}

for (const databaseKind of databaseKinds) {
  describe(`chats API on ${databaseKind}`, () => {
    let gateway: TestGateway;
    let url: string;
    let alice: BrowserSession;
    let bob: BrowserSession;
    const marker = `plaintext-marker-${databaseKind}-${Date.now()}`;
    let conversationKey: webcrypto.CryptoKey;

    const db = () => gateway.gateway.database.db;
    const putConversation = async (
      session: BrowserSession,
      id: string,
      body: { expected_version: number; text: string; wrapped_key?: string },
      options: { csrfToken?: string | null } = {},
    ) =>
      callApi(url, `/api/chats/conversations/${id}`, {
        method: 'PUT',
        session,
        ...options,
        body: {
          ...(body.wrapped_key === undefined ? {} : { wrapped_key: body.wrapped_key }),
          sealed_title: await seal(conversationKey, `title ${body.text}`),
          sealed_body: await seal(conversationKey, JSON.stringify({ messages: [{ role: 'user', text: body.text }] })),
          expected_version: body.expected_version,
        },
      });

    before(async () => {
      gateway = await startTestGateway({ databaseKind });
      url = gateway.url;
      alice = await signUp(url, { email: `alice-chats-${databaseKind}@example.com` });
      bob = await signUp(url, { email: `bob-chats-${databaseKind}@example.com` });
      conversationKey = await newKey();
    });
    after(() => gateway.close());

    test('the vault starts empty, is created once at version 1, and a passphrase change needs the current version', async () => {
      assert.deepEqual((await callApi(url, '/api/chats/vault', { session: alice })).json, { vault: null });
      const vault = {
        kdf: 'PBKDF2-SHA-256',
        iterations: 600_000,
        salt: Buffer.alloc(16, 7).toString('base64'),
        wrapped_account_key: await seal(await newKey(), 'raw account key bytes'),
      };
      const weak = await callApi(url, '/api/chats/vault', {
        method: 'PUT',
        session: alice,
        body: { ...vault, iterations: 100_000, expected_version: 0 },
      });
      assert.equal(weak.status, 400);
      assert.equal(readError(weak).param, 'iterations');

      const created = await callApi(url, '/api/chats/vault', {
        method: 'PUT',
        session: alice,
        body: { ...vault, expected_version: 0 },
      });
      assert.equal(created.status, 200, created.text);
      const stored = (created.json as { vault: { version: number; wrapped_account_key: string; salt: string } }).vault;
      assert.equal(stored.version, 1);
      assert.equal(stored.wrapped_account_key, vault.wrapped_account_key);
      assert.equal(stored.salt, vault.salt);

      const again = await callApi(url, '/api/chats/vault', {
        method: 'PUT',
        session: alice,
        body: { ...vault, expected_version: 0 },
      });
      assert.equal(again.status, 409);
      assert.equal(readError(again).code, 'version_conflict');

      const rewrapped = { ...vault, wrapped_account_key: await seal(await newKey(), 'raw account key bytes') };
      const changed = await callApi(url, '/api/chats/vault', {
        method: 'PUT',
        session: alice,
        body: { ...rewrapped, expected_version: 1 },
      });
      assert.equal(changed.status, 200, changed.text);
      const read = (await callApi(url, '/api/chats/vault', { session: alice })).json as { vault: typeof stored };
      assert.equal(read.vault.version, 2);
      assert.equal(read.vault.wrapped_account_key, rewrapped.wrapped_account_key);
      assert.deepEqual((await callApi(url, '/api/chats/vault', { session: bob })).json, { vault: null });
    });

    test('a conversation is stored as the ciphertext sent, versioned, and a stale save is refused', async () => {
      const wrappedKey = await seal(await newKey(), 'raw conversation key');
      const missingKey = await putConversation(alice, 'conv-alpha-1', { expected_version: 0, text: marker });
      assert.equal(missingKey.status, 400);
      assert.equal(readError(missingKey).param, 'wrapped_key');

      const created = await putConversation(alice, 'conv-alpha-1', {
        expected_version: 0,
        text: marker,
        wrapped_key: wrappedKey,
      });
      assert.equal(created.status, 200, created.text);
      assert.equal((created.json as ConversationSummary).version, 1);

      const list = (await callApi(url, '/api/chats/conversations', { session: alice })).json as ConversationList;
      assert.deepEqual(
        list.data.map((item) => [item.id, item.version, item.wrapped_key]),
        [['conv-alpha-1', 1, wrappedKey]],
      );
      assert.equal('sealed_body' in (list.data[0] ?? {}), false, 'the list carries no bodies');

      const row = await db()
        .selectFrom('chat_conversations')
        .selectAll()
        .where('id', '=', 'conv-alpha-1')
        .executeTakeFirstOrThrow();
      const fetched = await callApi(url, '/api/chats/conversations/conv-alpha-1', { session: alice });
      assert.equal((fetched.json as { sealed_body: string }).sealed_body, row.sealed_body);

      const stale = await putConversation(alice, 'conv-alpha-1', {
        expected_version: 0,
        text: 'x',
        wrapped_key: wrappedKey,
      });
      assert.equal(stale.status, 409);
      const updated = await putConversation(alice, 'conv-alpha-1', { expected_version: 1, text: `${marker} second` });
      assert.equal((updated.json as ConversationSummary).version, 2, updated.text);
      const lost = await putConversation(alice, 'conv-alpha-1', { expected_version: 1, text: 'lost update' });
      assert.equal(lost.status, 409);
      assert.equal(readError(lost).code, 'version_conflict');
    });

    test('no table holds the plaintext: only base64 ciphertext reaches the database', async () => {
      const tables = ['chat_conversations', 'chat_conversation_keys', 'chat_vaults'] as const;
      for (const table of tables) {
        const rows = await db().selectFrom(table).selectAll().execute();
        assert.ok(rows.length > 0, `${table} has rows`);
        const text = JSON.stringify(rows);
        assert.ok(!text.includes(marker), `${table} holds no plaintext`);
        assert.ok(!text.includes('title '), `${table} holds no plaintext title`);
      }
    });

    test('another user can neither read, overwrite nor delete a conversation: 404, and may use the same id', async () => {
      const read = await callApi(url, '/api/chats/conversations/conv-alpha-1', { session: bob });
      assert.equal(read.status, 404);
      assert.equal(readError(read).code, 'not_found');
      const overwrite = await putConversation(bob, 'conv-alpha-1', { expected_version: 2, text: 'bob' });
      assert.equal(overwrite.status, 404);
      const remove = await callApi(url, '/api/chats/conversations/conv-alpha-1', { method: 'DELETE', session: bob });
      assert.equal(remove.status, 404);
      assert.deepEqual((await callApi(url, '/api/chats/conversations', { session: bob })).json, { data: [] });

      const own = await putConversation(bob, 'conv-alpha-1', {
        expected_version: 0,
        text: 'bob own',
        wrapped_key: await seal(await newKey(), 'bob key'),
      });
      assert.equal(own.status, 200, own.text);
      const aliceRow = await callApi(url, '/api/chats/conversations/conv-alpha-1', { session: alice });
      assert.equal((aliceRow.json as ConversationSummary).version, 2, 'Alice’s conversation is untouched');
    });

    test('state-changing calls need the CSRF token; a malformed id or body is a 400', async () => {
      const noToken = await putConversation(
        alice,
        'conv-alpha-1',
        { expected_version: 2, text: 'x' },
        { csrfToken: null },
      );
      assert.equal(noToken.status, 403);
      assert.equal(readError(noToken).code, 'csrf_token_invalid');
      const wrongToken = await callApi(url, '/api/chats/conversations/conv-alpha-1', {
        method: 'DELETE',
        session: alice,
        csrfToken: 'x'.repeat(43),
      });
      assert.equal(wrongToken.status, 403);
      const vault = await callApi(url, '/api/chats/vault', {
        method: 'PUT',
        session: alice,
        csrfToken: null,
        body: { expected_version: 2 },
      });
      assert.equal(vault.status, 403);
      const stillThere = await callApi(url, '/api/chats/conversations/conv-alpha-1', { session: alice });
      assert.equal((stillThere.json as ConversationSummary).version, 2);

      const badId = await callApi(url, '/api/chats/conversations/a%20b', { session: alice });
      assert.equal(badId.status, 400);
      assert.equal(readError(badId).param, 'id');
      const notBase64 = await callApi(url, '/api/chats/conversations/conv-alpha-1', {
        method: 'PUT',
        session: alice,
        body: {
          sealed_title: `<b>${marker}</b>`.padEnd(20, '!'),
          sealed_body: 'AAAAAAAAAAAAAAAAAAAA',
          expected_version: 2,
        },
      });
      assert.equal(notBase64.status, 400);
      assert.equal(readError(notBase64).param, 'sealed_title');
      const anonymous = await callApi(url, '/api/chats/conversations');
      assert.equal(anonymous.status, 401);
    });

    test('deleting removes the ciphertext and the wrapped key in one transaction', async () => {
      const countRows = async (id: string) => ({
        conversations: (await db().selectFrom('chat_conversations').select('id').where('id', '=', id).execute()).length,
        keys: (
          await db()
            .selectFrom('chat_conversation_keys')
            .select('conversation_id')
            .where('conversation_id', '=', id)
            .execute()
        ).length,
      });
      await putConversation(alice, 'conv-doomed-1', {
        expected_version: 0,
        text: 'doomed',
        wrapped_key: await seal(await newKey(), 'k'),
      });
      await installDeleteBlocker(gateway, 'conv-doomed-1');
      const blocked = await callApi(url, '/api/chats/conversations/conv-doomed-1', {
        method: 'DELETE',
        session: alice,
      });
      assert.equal(blocked.status, 500, 'the second statement of the transaction failed');
      assert.deepEqual(await countRows('conv-doomed-1'), { conversations: 1, keys: 1 }, 'the key delete rolled back');
      await removeDeleteBlocker(gateway);

      const deleted = await callApi(url, '/api/chats/conversations/conv-doomed-1', {
        method: 'DELETE',
        session: alice,
      });
      assert.deepEqual(deleted.json, { id: 'conv-doomed-1', deleted: true });
      assert.deepEqual(await countRows('conv-doomed-1'), { conversations: 0, keys: 0 });
      const again = await callApi(url, '/api/chats/conversations/conv-doomed-1', { method: 'DELETE', session: alice });
      assert.equal(again.status, 404);
    });

    // Only on SQLite: PostgreSQL keeps deleted tuples until VACUUM reuses their space (docs/encrypted-chat.md).
    const onSqlite = databaseKind === 'sqlite' ? test : () => undefined;
    onSqlite(
      'on SQLite a deleted conversation leaves no ciphertext or wrapped key in the database file or its log',
      async () => {
        const wrappedKey = await seal(await newKey(), 'shredded conversation key');
        const sealedBodies: string[] = [];
        for (const [version, text] of ['first', 'second', 'third'].entries()) {
          const saved = await putConversation(alice, 'conv-shred-1', {
            expected_version: version,
            text: `${marker} ${text}`,
            ...(version === 0 ? { wrapped_key: wrappedKey } : {}),
          });
          assert.equal(saved.status, 200, saved.text);
          const row = await db()
            .selectFrom('chat_conversations')
            .select('sealed_body')
            .where('id', '=', 'conv-shred-1')
            .executeTakeFirstOrThrow();
          sealedBodies.push(row.sealed_body);
        }
        // Short pieces: a value that spills onto an overflow page is split in the file.
        const pieces = [wrappedKey.slice(0, 40), ...sealedBodies.map((body) => body.slice(0, 40))];
        const before = readSqliteFiles(gateway.config.dataDir);
        assert.ok(before.includes(wrappedKey.slice(0, 40)), 'the wrapped key is on disk before the deletion');
        assert.ok(before.includes(sealedBodies[2]?.slice(0, 40) ?? '?'), 'the latest ciphertext is on disk before');

        const deleted = await callApi(url, '/api/chats/conversations/conv-shred-1', {
          method: 'DELETE',
          session: alice,
        });
        assert.equal(deleted.status, 200, deleted.text);
        const after = readSqliteFiles(gateway.config.dataDir);
        for (const piece of pieces) assert.ok(!after.includes(piece), `"${piece}" is gone from the files`);
        assert.ok(after.includes('chat_conversations'), 'the files were read');
      },
    );

    test('the browser-chat key is the same for the session, calls /v1, and dies at sign-out', async () => {
      const carol = await signUp(url, { email: `carol-chats-${databaseKind}@example.com` });
      const noCsrf = await callApi(url, '/api/chat-key', { method: 'POST', session: carol, csrfToken: null });
      assert.equal(noCsrf.status, 403);
      assert.equal((await callApi(url, '/api/chat-key', { method: 'POST' })).status, 401);

      const first = (await callApi(url, '/api/chat-key', { method: 'POST', session: carol })).json as BrowserChatKey;
      const second = (await callApi(url, '/api/chat-key', { method: 'POST', session: carol })).json as BrowserChatKey;
      assert.match(first.key, /^sk-[A-Za-z0-9_-]{43}$/);
      assert.deepEqual(second, first);
      assert.ok(Date.parse(first.expires_at) - Date.now() <= 24 * 3600 * 1000);
      const keys = await db().selectFrom('api_keys').selectAll().where('id', '=', first.key_id).execute();
      assert.equal(keys.length, 1);
      assert.equal(keys[0]?.name, 'browser chat');
      assert.ok(!JSON.stringify(keys).includes(first.key.slice(3)), 'the key itself is not stored');

      const models = (key: string) => fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal((await models(first.key)).status, 200);
      const other = await signUp(url, { email: `carol2-chats-${databaseKind}@example.com` });
      const othersKey = (await callApi(url, '/api/chat-key', { method: 'POST', session: other }))
        .json as BrowserChatKey;
      assert.notEqual(othersKey.key, first.key);

      assert.equal((await callApi(url, '/api/auth/logout', { method: 'POST', session: carol })).status, 204);
      let status = 200;
      for (let attempt = 0; attempt < 50 && status !== 401; attempt += 1) {
        await sleep(100);
        status = (await models(first.key)).status;
      }
      assert.equal(status, 401, 'the key is refused after sign-out');
      assert.equal((await models(othersKey.key)).status, 200, 'other sessions keep theirs');
    });

    test('the OpenAPI document describes every chat endpoint', async () => {
      const document = (await (await fetch(`${url}/api/openapi.json`)).json()) as {
        paths: Record<string, Record<string, unknown>>;
      };
      assert.deepEqual(Object.keys(document.paths['/api/chats/vault'] ?? {}).sort(), ['get', 'put']);
      assert.deepEqual(Object.keys(document.paths['/api/chats/conversations'] ?? {}), ['get']);
      assert.deepEqual(Object.keys(document.paths['/api/chats/conversations/{id}'] ?? {}).sort(), [
        'delete',
        'get',
        'put',
      ]);
      assert.deepEqual(Object.keys(document.paths['/api/chat-key'] ?? {}), ['post']);
    });
  });
}

/** A real trigger that makes deleting one conversation fail after its key row was deleted in the same transaction. */
async function installDeleteBlocker(gateway: TestGateway, id: string): Promise<void> {
  const db = gateway.gateway.database.db;
  if (gateway.gateway.database.kind === 'sqlite') {
    await sql
      .raw(
        `create trigger block_delete before delete on chat_conversations when old.id = '${id}' ` +
          `begin select raise(abort, 'blocked by test'); end`,
      )
      .execute(db);
    return;
  }
  await sql
    .raw(
      `create function block_delete() returns trigger language plpgsql as $$ begin ` +
        `if old.id = '${id}' then raise exception 'blocked by test'; end if; return old; end $$`,
    )
    .execute(db);
  await sql
    .raw('create trigger block_delete before delete on chat_conversations for each row execute function block_delete()')
    .execute(db);
}

async function removeDeleteBlocker(gateway: TestGateway): Promise<void> {
  const db = gateway.gateway.database.db;
  if (gateway.gateway.database.kind === 'sqlite') {
    await sql.raw('drop trigger block_delete').execute(db);
    return;
  }
  await sql.raw('drop trigger block_delete on chat_conversations').execute(db);
  await sql.raw('drop function block_delete').execute(db);
}
