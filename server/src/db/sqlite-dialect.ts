import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';

/**
 * Kysely's SQLite dialect over Node's built-in `node:sqlite` (no native add-on to build). Kysely expects the
 * better-sqlite3 statement shape; this adapts `StatementSync` to it.
 */
export function createNodeSqliteDialect(filePath: string): { dialect: SqliteDialect; database: DatabaseSync } {
  const database = new DatabaseSync(filePath);
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = NORMAL');
  database.exec('PRAGMA busy_timeout = 5000');
  database.exec('PRAGMA foreign_keys = ON');
  const adapter: SqliteDatabase = {
    close: () => database.close(),
    prepare: (sql) => adaptStatement(database, sql),
  };
  return { dialect: new SqliteDialect({ database: adapter }), database };
}

function adaptStatement(database: DatabaseSync, sql: string): SqliteStatement {
  const statement = database.prepare(sql);
  const toInputs = (parameters: ReadonlyArray<unknown>) => parameters.map(toSqliteValue);
  return {
    reader: statement.columns().length > 0,
    all: (parameters) => statement.all(...toInputs(parameters)),
    run: (parameters) => {
      const result = statement.run(...toInputs(parameters));
      return { changes: result.changes, lastInsertRowid: result.lastInsertRowid };
    },
    iterate: (parameters) => statement.iterate(...toInputs(parameters)),
  };
}

function toSqliteValue(value: unknown): SQLInputValue {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === undefined) return null;
  return value as SQLInputValue;
}
