import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';

/**
 * Kysely's SQLite dialect over Node's built-in `node:sqlite` (no native add-on to build). Kysely expects the
 * better-sqlite3 statement shape; this adapts `StatementSync` to it.
 */
export function createNodeSqliteDialect(
  filePath: string,
  options: { isAutoCheckpointOff?: boolean } = {},
): { dialect: SqliteDialect; database: DatabaseSync } {
  const database = new DatabaseSync(filePath);
  for (const pragma of sqliteConnectionPragmas(options)) database.exec(pragma);
  const statements = createStatementCache(database);
  const adapter: SqliteDatabase = {
    close: () => database.close(),
    prepare: (sql) => adaptStatement(database, statements, sql),
  };
  return { dialect: new SqliteDialect({ database: adapter }), database };
}

/** The settings of every gateway connection to the file (the writer thread's too). */
export function sqliteConnectionPragmas(options: { isAutoCheckpointOff?: boolean }): string[] {
  return [
    'PRAGMA journal_mode = WAL',
    'PRAGMA synchronous = NORMAL',
    'PRAGMA busy_timeout = 5000',
    'PRAGMA foreign_keys = ON',
    ...(options.isAutoCheckpointOff ? ['PRAGMA wal_autocheckpoint = 0'] : []),
    // Deleted rows (chat ciphertext, wrapped keys) are zeroed, not left behind in the file.
    'PRAGMA secure_delete = ON',
  ];
}

const maxCachedStatements = 500;

type CachedStatement = { statement: StatementSync; isReader: boolean };

/**
 * Kysely prepares every query it runs; compiling the same SQL again on each request cost about a tenth of a
 * millisecond per settlement (bench/, docs/benchmarks.md). Statements are kept by SQL text, the oldest dropped first
 * past the bound; SQLite re-compiles a kept statement by itself after a schema change.
 */
function createStatementCache(database: DatabaseSync): (sql: string) => CachedStatement {
  const cache = new Map<string, CachedStatement>();
  return (sql) => {
    const cached = cache.get(sql);
    if (cached) return cached;
    const statement = database.prepare(sql);
    const entry = { statement, isReader: statement.columns().length > 0 };
    cache.set(sql, entry);
    if (cache.size > maxCachedStatements) cache.delete(cache.keys().next().value ?? sql);
    return entry;
  };
}

function adaptStatement(
  database: DatabaseSync,
  statements: (sql: string) => CachedStatement,
  sql: string,
): SqliteStatement {
  const { statement, isReader } = statements(sql);
  const toInputs = (parameters: ReadonlyArray<unknown>) => parameters.map(toSqliteValue);
  return {
    reader: isReader,
    all: (parameters) => statement.all(...toInputs(parameters)),
    run: (parameters) => {
      const result = statement.run(...toInputs(parameters));
      return { changes: result.changes, lastInsertRowid: result.lastInsertRowid };
    },
    // An iterator keeps its statement busy until it is drained, so streaming reads get a statement of their own.
    iterate: (parameters) => database.prepare(sql).iterate(...toInputs(parameters)),
  };
}

function toSqliteValue(value: unknown): SQLInputValue {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === undefined) return null;
  return value as SQLInputValue;
}
