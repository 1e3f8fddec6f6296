import { Worker } from 'node:worker_threads';

export type WalCheckpointer = { stop: () => Promise<void> };

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
  const worker = new Worker(new URL('./wal-checkpointer-worker.ts', import.meta.url), {
    workerData: { filePath: input.filePath, intervalMs: input.intervalMs },
  });
  worker.unref();
  worker.on('message', (message: { error?: string }) => {
    if (message.error) input.onError(message.error);
  });
  worker.on('error', (error) => input.onError(error.message));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    stop: async () => {
      worker.postMessage('stop');
      await exited;
    },
  };
}
