import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { openDatabase } from './database.ts';
import { migrateToLatest } from './migrate.ts';

const modeOf = (file: string) => statSync(file).mode & 0o777;

test('issue 19: a new SQLite database, its WAL and shared-memory files are readable by their owner only', async () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'gateway-private-'));
  const previousUmask = process.umask(0o022);
  try {
    const filePath = path.join(directory, 'data', 'gateway.sqlite');
    const handle = openDatabase({ kind: 'sqlite', filePath });
    await migrateToLatest(handle.db);
    for (const file of [filePath, `${filePath}-wal`, `${filePath}-shm`]) {
      assert.ok(existsSync(file), file);
      assert.equal(modeOf(file).toString(8), '600', file);
    }
    assert.equal(modeOf(path.dirname(filePath)).toString(8), '700');
    await handle.close();
  } finally {
    process.umask(previousUmask);
    rmSync(directory, { recursive: true, force: true });
  }
});

test('a database file an older version left world-readable is narrowed to 0600 when opened', async () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'gateway-private-'));
  try {
    const filePath = path.join(directory, 'gateway.sqlite');
    writeFileSync(filePath, '');
    chmodSync(filePath, 0o644);
    const handle = openDatabase({ kind: 'sqlite', filePath });
    await migrateToLatest(handle.db);
    assert.equal(modeOf(filePath).toString(8), '600');
    await handle.close();
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});
