import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config/config.ts';
import type { DatabaseSchema } from './schema.ts';
import { createNodeSqliteDialect } from './sqlite-dialect.ts';

export type Database = Kysely<DatabaseSchema>;

/** An open database: the typed query builder, which engine it is, and a human description without secrets. */
export type DatabaseHandle = {
  db: Database;
  kind: DatabaseConfig['kind'];
  description: string;
  close: () => Promise<void>;
};

const int8Oid = 20;
const numericOid = 1700;

/** Opens SQLite (creating its folder) or a PostgreSQL pool. Money and timestamps come back as numbers on both. */
export function openDatabase(config: DatabaseConfig): DatabaseHandle {
  if (config.kind === 'sqlite') {
    mkdirSync(path.dirname(config.filePath), { recursive: true });
    const { dialect } = createNodeSqliteDialect(config.filePath);
    const db = new Kysely<DatabaseSchema>({ dialect });
    return { db, kind: 'sqlite', description: `SQLite at ${config.filePath}`, close: () => db.destroy() };
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 20,
    connectionTimeoutMillis: 5000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === int8Oid || oid === numericOid
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
    },
  });
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres', description: `PostgreSQL at ${redactUrl(config.url)}`, close: () => db.destroy() };
}

/** Checks the database answers; used by start-up and /readyz. */
export async function pingDatabase(db: Database): Promise<void> {
  await db.selectFrom('cache_versions').select('name').limit(1).execute();
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '****';
    return parsed.toString();
  } catch {
    return 'postgres (unparseable URL)';
  }
}
