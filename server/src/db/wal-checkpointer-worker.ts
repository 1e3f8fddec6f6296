import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * Runs in a worker thread with its own connection: copies the write-ahead log into the database file every
 * `intervalMs` (a PASSIVE checkpoint never blocks the gateway's writes), so the `fsync` a checkpoint needs never
 * stalls the event loop that serves requests. On `stop`, a last TRUNCATE checkpoint empties the log.
 */
const { filePath, intervalMs } = workerData as { filePath: string; intervalMs: number };
const database = new DatabaseSync(filePath);
database.exec('PRAGMA busy_timeout = 1000');

const checkpoint = (mode: 'PASSIVE' | 'TRUNCATE') => {
  try {
    database.exec(`PRAGMA wal_checkpoint(${mode})`);
  } catch (error) {
    parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};

const timer = setInterval(() => checkpoint('PASSIVE'), intervalMs);
parentPort?.on('message', (message: unknown) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint('TRUNCATE');
  database.close();
  parentPort?.close();
});
