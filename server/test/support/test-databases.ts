import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/db/database.ts';

export const databaseKinds = ['sqlite', 'postgres'] as const;
export type DatabaseKind = (typeof databaseKinds)[number];

export type TestDatabase = { config: DatabaseConfig; environment: Record<string, string>; drop: () => Promise<void> };

/** The PostgreSQL server `npm test` started; its absence is an error, never a silent skip. */
export function testPostgresUrl(): string {
  const url = process.env.TEST_POSTGRES_URL;
  if (!url) throw new Error('TEST_POSTGRES_URL is not set: run the suite with `npm test`, which starts PostgreSQL');
  return url;
}

/** A fresh, empty database of the given kind: a new SQLite file, or a new database on the test PostgreSQL server. */
export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const directory = mkdtempSync(path.join(tmpdir(), 'gateway-test-sqlite-'));
    return {
      config: { kind: 'sqlite', filePath: path.join(directory, 'gateway.sqlite') },
      environment: { DATA_DIR: directory },
      drop: async () => rmSync(directory, { recursive: true, force: true }),
    };
  }
  const serverUrl = testPostgresUrl();
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    config: { kind: 'postgres', url: url.toString() },
    environment: { DATABASE_URL: url.toString() },
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      // A closed pool's sockets may still be closing; dropping `with (force)` under them would make their clients
      // raise "terminating connection" after the test ended. Give them a moment to go first.
      for (let attempt = 0; attempt < 40; attempt += 1) {
        const result = await client.query('select count(*)::int as count from pg_stat_activity where datname = $1', [
          name,
        ]);
        if ((result.rows[0] as { count: number }).count === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
