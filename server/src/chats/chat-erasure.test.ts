import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { callApi, signUp, type BrowserSession } from '../../test/support/account-api-client.ts';
import { startTestGateway, type TestGateway } from '../../test/support/start-test-gateway.ts';
import { checkpointAfterDeletion } from '../db/chat-conversations.ts';

/**
 * On SQLite, a deleted conversation is overwritten on disk by a TRUNCATE checkpoint, which another connection can
 * keep from finishing (a read of an older snapshot, as the CLI's, or a write). The checkpoint's busy result is
 * inspected and the checkpoint tried again: before the deletion is answered, then in the background until it works.
 */

/** The raw bytes of the SQLite database file and its write-ahead log, as Latin-1 text (base64 shows as is). */
function readSqliteFiles(dataDir: string): string {
  return readdirSync(dataDir)
    .filter((name) => name.endsWith('.sqlite') || name.endsWith('.sqlite-wal'))
    .map((name) => readFileSync(path.join(dataDir, name)).toString('latin1'))
    .join('\n');
}

/** Base64 of random bytes, standing in for a sealed value (the server never reads it). */
function randomSealed(): string {
  return Buffer.from(webcrypto.getRandomValues(new Uint8Array(96))).toString('base64');
}

/** Another connection to the file that holds a read snapshot open until released. */
function holdReadSnapshot(filePath: string): { release: () => void } {
  const reader = new DatabaseSync(filePath);
  reader.exec('BEGIN');
  reader.prepare('SELECT count(*) FROM chat_conversations').get();
  return {
    release: () => {
      reader.exec('COMMIT');
      reader.close();
    },
  };
}

describe('chat deletion on SQLite while another connection keeps the log busy', () => {
  let gateway: TestGateway;
  let alice: BrowserSession;
  let filePath: string;

  before(async () => {
    gateway = await startTestGateway({ databaseKind: 'sqlite' });
    alice = await signUp(gateway.url, { email: 'alice-erasure@example.com' });
    const database = gateway.config.database;
    assert.equal(database.kind, 'sqlite');
    filePath = database.filePath;
  });
  after(() => gateway.close());

  /** Saves a conversation and returns the short pieces of it that the raw files hold. */
  const saveConversation = async (id: string): Promise<string[]> => {
    const wrappedKey = randomSealed();
    const sealedBody = randomSealed();
    const saved = await callApi(gateway.url, `/api/chats/conversations/${id}`, {
      method: 'PUT',
      session: alice,
      body: { wrapped_key: wrappedKey, sealed_title: randomSealed(), sealed_body: sealedBody, expected_version: 0 },
    });
    assert.equal(saved.status, 200, saved.text);
    // Short pieces: a value that spills onto an overflow page is split in the file.
    const pieces = [wrappedKey.slice(0, 40), sealedBody.slice(0, 40)];
    const files = readSqliteFiles(gateway.config.dataDir);
    for (const piece of pieces) assert.ok(files.includes(piece), `"${piece}" is on disk before the deletion`);
    return pieces;
  };
  const deleteConversation = (id: string) =>
    callApi(gateway.url, `/api/chats/conversations/${id}`, { method: 'DELETE', session: alice });
  const remainingPieces = (pieces: readonly string[]) => {
    const files = readSqliteFiles(gateway.config.dataDir);
    assert.ok(files.includes('chat_conversations'), 'the files were read');
    return pieces.filter((piece) => files.includes(piece));
  };

  test('the checkpoint reports a reader busy, waits only briefly, and keeps the connection’s busy timeout', async () => {
    const db = gateway.gateway.database.db;
    const reader = holdReadSnapshot(filePath);
    try {
      await saveConversation('conv-written-under-a-reader');
      assert.equal(await checkpointAfterDeletion(db, { busyWaitMs: 10 }), false, 'busy: the log is not emptied');
      const timeout = await sql<{ timeout: number }>`PRAGMA busy_timeout`.execute(db);
      assert.equal(timeout.rows[0]?.timeout, 5000, 'the usual busy timeout is back');
    } finally {
      reader.release();
    }
    // Once the reader let go the checkpoint finishes; the writer thread's own checkpoint can still make one attempt
    // report busy for a moment (as the deletion's own retries allow), so a few attempts are given.
    let isDone = false;
    for (let attempt = 0; attempt < 20 && !isDone; attempt += 1) {
      isDone = await checkpointAfterDeletion(db, { busyWaitMs: 10 });
      if (!isDone) await sleep(20);
    }
    assert.equal(isDone, true, 'the checkpoint finishes once the reader let go');
    assert.equal(statSync(`${filePath}-wal`).size, 0, 'the log is empty');
  });

  test('a reader that lets go within a moment: the deletion is answered with the bytes already overwritten', async () => {
    const pieces = await saveConversation('conv-brief-reader');
    const reader = holdReadSnapshot(filePath);
    const released = sleep(150).then(() => reader.release());
    try {
      const deleted = await deleteConversation('conv-brief-reader');
      assert.equal(deleted.status, 200, deleted.text);
      assert.deepEqual(remainingPieces(pieces), [], 'overwritten before the answer');
    } finally {
      await released;
    }
  });

  test('a reader that stays: the deletion is answered, and its bytes are overwritten once the reader lets go', async () => {
    const pieces = await saveConversation('conv-long-reader');
    const reader = holdReadSnapshot(filePath);
    let isReleased = false;
    try {
      const deleted = await deleteConversation('conv-long-reader');
      assert.deepEqual(deleted.json, { id: 'conv-long-reader', deleted: true });
      assert.deepEqual(remainingPieces(pieces), pieces, 'the reader pins the old pages: still on disk');
      reader.release();
      isReleased = true;
      // The background attempts run once a second; this only bounds a hang.
      for (let attempt = 0; attempt < 100 && remainingPieces(pieces).length > 0; attempt += 1) await sleep(100);
      assert.deepEqual(remainingPieces(pieces), [], 'overwritten once the reader let go, with no other deletion');
      assert.equal(statSync(`${filePath}-wal`).size, 0, 'the log is empty');
    } finally {
      if (!isReleased) reader.release();
    }
  });
});
