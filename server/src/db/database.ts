import { createPrivateSqliteFile } from './create-private-file.ts';
import { Kysely, PostgresDialect, type Dialect } from 'kysely';
import type { DatabaseSchema } from './schema.ts';
import { createSharedDriverDialects } from './shared-driver-dialect.ts';
import { createNodeSqliteDialect, sqliteConnectionPragmas } from './sqlite-dialect.ts';
import { startSqliteWriterThread, type SqliteWriterThread } from './sqlite-writer-thread.ts';

/** Which database the gateway runs on. */
export type DatabaseConfig = { kind: 'sqlite'; filePath: string } | { kind: 'postgres'; url: string };

export type Database = Kysely<DatabaseSchema>;

/**
 * An open database: the typed query builder, which engine it is, and a human description without secrets.
 * `db` waits, before each query, for the read barrier (the settlement writer's flush, so every read sees every charge
 * settled before it); `settlementDb` is the same pool without the wait, for the settlement writer itself.
 */
export type DatabaseHandle = {
  db: Database;
  settlementDb: Database;
  /** SQLite only, when asked for: the thread that writes settled charges and runs checkpoints. */
  writerThread: SqliteWriterThread | undefined;
  kind: DatabaseConfig['kind'];
  description: string;
  setReadBarrier: (barrier: () => Promise<void>) => void;
  close: () => Promise<void>;
};

const int8Oid = 20;
const numericOid = 1700;

/**
 * Opens SQLite (creating its folder) or a PostgreSQL pool. Money and timestamps come back as numbers on both. The
 * gateway passes `writerThread` so that, on SQLite, settled charges are written and checkpoints run in a worker
 * thread (`sqlite-writer-thread.ts`); short-lived users (the CLI, tests) keep SQLite's automatic checkpoints.
 */
export function openDatabase(
  config: DatabaseConfig,
  options: { writerThread?: { checkpointIntervalMs: number; onError: (message: string) => void } } = {},
): DatabaseHandle {
  let readBarrier: () => Promise<void> = () => Promise.resolve();
  const hasWriterThread = config.kind === 'sqlite' && config.filePath !== ':memory:' && !!options.writerThread;
  const dialects = createSharedDriverDialects(createDialect(config, { isAutoCheckpointOff: hasWriterThread }));
  const writerThread =
    hasWriterThread && config.kind === 'sqlite' && options.writerThread
      ? startSqliteWriterThread({
          filePath: config.filePath,
          pragmas: sqliteConnectionPragmas({ isAutoCheckpointOff: true }),
          ...options.writerThread,
        })
      : undefined;
  const db = new Kysely<DatabaseSchema>({ dialect: dialects.withBarrier(() => readBarrier()) });
  const settlementDb = new Kysely<DatabaseSchema>({ dialect: dialects.direct });
  return {
    db,
    settlementDb,
    writerThread,
    kind: config.kind,
    description: config.kind === 'sqlite' ? `SQLite at ${config.filePath}` : `PostgreSQL at ${redactUrl(config.url)}`,
    setReadBarrier: (barrier) => {
      readBarrier = barrier;
    },
    close: async () => {
      await settlementDb.destroy();
      await db.destroy();
      await writerThread?.stop();
    },
  };
}

function createDialect(config: DatabaseConfig, options: { isAutoCheckpointOff: boolean }): Dialect {
  if (config.kind === 'sqlite') {
    if (config.filePath !== ':memory:') createPrivateSqliteFile(config.filePath);
    return createNodeSqliteDialect(config.filePath, options).dialect;
  }
  // The PostgreSQL driver is loaded only when it is used: a SQLite gateway does without its memory.
  const createPool = async () => {
    const { default: pg } = await import('pg');
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
    // An idle connection the server dropped (a restart, a failover) leaves the pool by itself; unhandled, its
    // 'error' event would end the process. /readyz reports the database while it does not answer.
    pool.on('error', () => undefined);
    // A connection in use when the server goes fails its query (the caller sees that error) and also emits 'error' on
    // its client, which the pool listens to only while idle: without this listener that event ends the process.
    pool.on('connect', (client) => client.on('error', () => undefined));
    return pool;
  };
  return new PostgresDialect({ pool: createPool });
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
