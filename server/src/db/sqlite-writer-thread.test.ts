import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from './database.ts';

const sizeOf = (filePath: string) => {
  try {
    return statSync(filePath).size;
  } catch {
    return 0;
  }
};

test('checkpoints run in the writer thread: the database file takes the log’s pages, and stop empties the log', async () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'wal-checkpointer-'));
  const filePath = path.join(directory, 'gateway.sqlite');
  const errors: string[] = [];
  const handle = openDatabase(
    { kind: 'sqlite', filePath },
    { writerThread: { checkpointIntervalMs: 20, onError: (message) => errors.push(message) } },
  );
  try {
    await sql`create table filler (id integer primary key, body text not null)`.execute(handle.db);
    const before = sizeOf(filePath);
    for (let row = 0; row < 2000; row += 1) {
      await sql`insert into filler (body) values (${'x'.repeat(1024)})`.execute(handle.db);
    }
    for (let waited = 0; sizeOf(filePath) < before + 1_000_000 && waited < 10_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(sizeOf(filePath) >= before + 1_000_000, 'the worker copied the log into the database file');
  } finally {
    await handle.close();
  }
  assert.equal(sizeOf(`${filePath}-wal`), 0, 'the last checkpoint truncated the log');
  assert.deepEqual(errors, []);
  rmSync(directory, { recursive: true, force: true });
});

test('a transaction in the writer thread returns RETURNING rows, and one failing statement rolls back all of it', async () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'sqlite-writer-'));
  const filePath = path.join(directory, 'gateway.sqlite');
  const handle = openDatabase(
    { kind: 'sqlite', filePath },
    { writerThread: { checkpointIntervalMs: 1000, onError: () => undefined } },
  );
  try {
    await sql`create table notes (id integer primary key, body text not null unique)`.execute(handle.db);
    const thread = handle.writerThread;
    assert.ok(thread);
    const rows = await thread.runTransaction([
      { sql: 'insert into notes (body) values (?)', parameters: ['first'] },
      { sql: 'insert into notes (body) values (?) returning id, body', parameters: ['second'] },
    ]);
    assert.deepEqual(rows, [[], [{ id: 2, body: 'second' }]]);
    await assert.rejects(
      thread.runTransaction([
        { sql: 'insert into notes (body) values (?)', parameters: ['third'] },
        { sql: 'insert into notes (body) values (?)', parameters: ['first'] },
      ]),
      /UNIQUE constraint failed/,
    );
    const bodies = await sql<{ body: string }>`select body from notes order by id`.execute(handle.db);
    assert.deepEqual(
      bodies.rows.map((row) => row.body),
      ['first', 'second'],
    );
  } finally {
    await handle.close();
    rmSync(directory, { recursive: true, force: true });
  }
});
