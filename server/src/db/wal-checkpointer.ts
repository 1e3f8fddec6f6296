import { Worker } from 'node:worker_threads';

export type WalCheckpointer = { stop: () => Promise<void> };

/**
 * The worker thread's whole program, as plain JavaScript: a worker started from a TypeScript file would load Node's
 * TypeScript stripper again, about 70 MB of resident memory for a dozen lines. It opens its own connection, runs a
 * PASSIVE checkpoint (which never blocks the gateway's writes) every `intervalMs`, and on `stop` a last TRUNCATE
 * checkpoint that empties the log.
 */
const workerSource = `
const { DatabaseSync } = require('node:sqlite');
const { parentPort, workerData } = require('node:worker_threads');
const database = new DatabaseSync(workerData.filePath);
database.exec('PRAGMA busy_timeout = 1000');
const checkpoint = (mode) => {
  try {
    database.exec('PRAGMA wal_checkpoint(' + mode + ')');
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message ? error.message : error) });
  }
};
const timer = setInterval(() => checkpoint('PASSIVE'), workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint('TRUNCATE');
  database.close();
  parentPort.close();
});
`;

/**
 * Moves SQLite's checkpoints off the event loop. With `wal_autocheckpoint` on, every ~1,000 log pages one commit
 * also copies the log into the database file and waits for the disk (`fsync`): milliseconds to tens of milliseconds
 * during which no request and no stream moves (docs/benchmarks.md). The gateway's connection turns that off and a
 * worker thread checkpoints on a timer instead; durability is unchanged (the log is the durable copy).
 */
export function startWalCheckpointer(input: {
  filePath: string;
  intervalMs: number;
  onError: (message: string) => void;
}): WalCheckpointer {
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: { filePath: input.filePath, intervalMs: input.intervalMs },
    resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 },
  });
  worker.unref();
  worker.on('message', (message: { error?: string }) => {
    if (message.error) input.onError(message.error);
  });
  worker.on('error', (error) => input.onError(error.message));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    stop: async () => {
      // Referenced again so that the process waits for the last checkpoint instead of exiting under it.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
