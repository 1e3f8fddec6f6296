import { Worker } from 'node:worker_threads';

/** One compiled SQL statement and its parameters (already SQLite values). */
export type SqlStatement = { sql: string; parameters: readonly (string | number | bigint | null)[] };

/**
 * A worker thread with its own SQLite connection that takes the gateway's bulk writes (the settled charges) and its
 * checkpoints off the event loop that serves requests: a group of charges costs the event loop only the building of
 * its statements, and neither the commit nor the checkpoint's `fsync` can stall a request or a stream.
 */
export type SqliteWriterThread = {
  /** Runs the statements in one transaction; resolves with the rows each statement returned (RETURNING). */
  runTransaction: (statements: readonly SqlStatement[]) => Promise<unknown[][]>;
  /**
   * Writes a group of new charges in one transaction, the statements built and bound inside the thread: `text` is
   * the JSON of a `ChargeGroupText` (`charge-writer.ts`). Resolves with the updated balances (`id`,
   * `balance_micros`, `balance_version`), one per user. One string crosses to the thread instead of compiled
   * statements, whose building (Kysely) and structured copy cost the event loop about 40 µs per charge.
   */
  writeCharges: (text: string) => Promise<unknown[]>;
  /** A last checkpoint that empties the log, then the thread ends. */
  stop: () => Promise<void>;
};

/**
 * The thread's whole program, as plain JavaScript: a worker started from a TypeScript file would load Node's
 * TypeScript stripper again (about 70 MB of resident memory). Statements are prepared once per SQL text (a bounded
 * cache); a transaction that fails is rolled back and its error (message and SQLite code) sent back. A PASSIVE
 * checkpoint (which never blocks writers) runs on a timer.
 */
const workerSource = `
const { DatabaseSync } = require('node:sqlite');
const { parentPort, workerData } = require('node:worker_threads');
const database = new DatabaseSync(workerData.filePath);
for (const pragma of workerData.pragmas) database.exec(pragma);
const statements = new Map();
const prepare = (sql) => {
  let statement = statements.get(sql);
  if (statement) return statement;
  statement = database.prepare(sql);
  statements.set(sql, statement);
  if (statements.size > 300) statements.delete(statements.keys().next().value);
  return statement;
};
const checkpoint = (mode) => {
  try {
    database.exec('PRAGMA wal_checkpoint(' + mode + ')');
  } catch (error) {
    parentPort.postMessage({ kind: 'error', message: String(error && error.message ? error.message : error) });
  }
};
const timer = setInterval(() => checkpoint('PASSIVE'), workerData.checkpointIntervalMs);
const runStatements = (statements) => {
  const results = [];
  for (const { sql, parameters } of statements) {
    const statement = prepare(sql);
    if (statement.columns().length > 0) results.push(statement.all(...parameters));
    else {
      statement.run(...parameters);
      results.push([]);
    }
  }
  return results;
};
const columnPattern = /^[a-z_]+$/;
const insertRow = (table, row) => {
  const columns = Object.keys(row);
  if (!columns.every((column) => columnPattern.test(column))) throw new Error('unexpected column in ' + table);
  const placeholders = columns.map(() => '?').join(', ');
  prepare('INSERT INTO ' + table + ' (' + columns.join(', ') + ') VALUES (' + placeholders + ')').run(
    ...columns.map((column) => row[column]),
  );
};
const writeCharges = (text) => {
  const group = JSON.parse(text);
  for (const { ledger, usage } of group.charges) {
    prepare(
      'INSERT INTO ledger_transactions (id, idempotency_key, kind, reason, created_at) VALUES (?, ?, ?, ?, ?)',
    ).run(ledger.id, ledger.idempotencyKey, ledger.kind, ledger.reason, ledger.createdAt);
    for (const entry of ledger.entries) {
      if (entry.amountMicros === 0) continue;
      prepare('INSERT INTO ledger_entries (transaction_id, account, amount_micros) VALUES (?, ?, ?)').run(
        ledger.id,
        entry.account,
        entry.amountMicros,
      );
    }
    insertRow('usage_records', usage);
  }
  const balances = [];
  for (const [userId, amountMicros] of group.balances) {
    const update = prepare(
      'UPDATE users SET balance_micros = balance_micros + ?, balance_version = balance_version + 1 WHERE id = ? ' +
        'RETURNING id, balance_micros, balance_version',
    );
    balances.push(...update.all(amountMicros, userId));
  }
  for (const [keyId, costMicros, lastUsedAt] of group.spends) {
    prepare('UPDATE api_keys SET spent_micros = spent_micros + ?, last_used_at = ? WHERE id = ?').run(
      costMicros,
      lastUsedAt,
      keyId,
    );
  }
  return [balances];
};
parentPort.on('message', (message) => {
  if (message.kind === 'stop') {
    clearInterval(timer);
    checkpoint('TRUNCATE');
    database.close();
    parentPort.close();
    return;
  }
  try {
    database.exec('BEGIN IMMEDIATE');
    const results = message.kind === 'charges' ? writeCharges(message.text) : runStatements(message.statements);
    database.exec('COMMIT');
    parentPort.postMessage({ kind: 'done', id: message.id, results });
  } catch (error) {
    try {
      if (database.isTransaction) database.exec('ROLLBACK');
    } catch {}
    parentPort.postMessage({
      kind: 'failed',
      id: message.id,
      message: String(error && error.message ? error.message : error),
      code: error && error.errcode,
    });
  }
});
`;

type Reply =
  | { kind: 'done'; id: number; results: unknown[][] }
  | { kind: 'failed'; id: number; message: string; code: number | undefined }
  | { kind: 'error'; message: string };

export function startSqliteWriterThread(input: {
  filePath: string;
  /** The connection settings of the gateway's own connection (WAL, synchronous, busy timeout, …). */
  pragmas: readonly string[];
  checkpointIntervalMs: number;
  onError: (message: string) => void;
}): SqliteWriterThread {
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: { filePath: input.filePath, pragmas: input.pragmas, checkpointIntervalMs: input.checkpointIntervalMs },
    resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 },
  });
  worker.unref();
  const waiting = new Map<number, { resolve: (rows: unknown[][]) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let exitError: Error | undefined;
  worker.on('message', (reply: Reply) => {
    if (reply.kind === 'error') return input.onError(reply.message);
    const caller = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (reply.kind === 'done') caller?.resolve(reply.results);
    else caller?.reject(Object.assign(new Error(reply.message), { errcode: reply.code }));
  });
  worker.on('error', (error) => input.onError(error.message));
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      exitError = new Error('the SQLite writer thread has stopped');
      for (const caller of waiting.values()) caller.reject(exitError);
      waiting.clear();
      resolve();
    }),
  );
  const send = (message: { kind: 'run'; statements: readonly SqlStatement[] } | { kind: 'charges'; text: string }) => {
    if (exitError) return Promise.reject(exitError);
    const id = nextId;
    nextId += 1;
    return new Promise<unknown[][]>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    });
  };
  return {
    runTransaction: (statements) => send({ kind: 'run', statements }),
    writeCharges: async (text) => (await send({ kind: 'charges', text }))[0] ?? [],
    stop: async () => {
      if (exitError) return;
      // Referenced again so that the process waits for the last checkpoint instead of exiting under it.
      worker.ref();
      worker.postMessage({ kind: 'stop' });
      await exited;
    },
  };
}
