import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import type { Config } from './config/config.ts';
import { loadMasterKey } from './config/master-key.ts';
import type { Logger } from 'pino';

/** The environment key that tells a forked gateway which slot (0..PROCESSES-1) it fills. */
const workerIndexKey = 'GATEWAY_WORKER_INDEX';

/** Why PROCESSES above 1 cannot start with this configuration, or undefined when it can. */
export function refuseProcesses(config: Config): string | undefined {
  if (config.processes <= 1) return undefined;
  if (config.database.kind !== 'postgres' || config.redisUrl === undefined) {
    return (
      `PROCESSES=${config.processes} needs DATABASE_URL (PostgreSQL) and REDIS_URL: credit holds and rate limits ` +
      'must be shared between the processes, and SQLite has one writer (set PROCESSES=1 or configure both)'
    );
  }
  return undefined;
}

/**
 * A forked gateway's configuration: its own folder `DATA_DIR/workers/<slot>` for the settlement journal and node id
 * (each process journals and holds credit under its own identity; a restarted slot takes back what it left), and
 * `/metrics` on `METRICS_LISTEN` only in slot 0, since one address cannot be bound by every process.
 */
export function workerConfig(config: Config, index: number): Config {
  const metrics = index === 0 ? config.metrics : { ...config.metrics, listen: undefined };
  return { ...config, dataDir: path.join(config.dataDir, 'workers', String(index)), metrics };
}

/**
 * The primary of `PROCESSES=N`: forks N gateways running main.ts, which share the port through node:cluster (the
 * primary accepts connections and hands them round-robin to the workers). The master key is resolved once here
 * (generated into DATA_DIR on first start) and handed down, so every process seals with the same key. A worker that
 * exits while the primary runs is started again in its slot after a second; SIGTERM/SIGINT stop all of them.
 */
export function startProcesses(config: Config, logger: Logger, mainFile: string): void {
  const masterKey = loadMasterKey({ masterKeyHex: config.masterKeyHex, dataDir: config.dataDir });
  if (masterKey.source === 'generated') {
    logger.warn(
      { file: masterKey.filePath },
      'MASTER_KEY is not set: generated one; back it up, it seals vendor credentials',
    );
  }
  cluster.setupPrimary({ exec: mainFile });
  const slots = new Map<Worker, number>();
  let isStopping = false;
  const fork = (index: number) => {
    const worker = cluster.fork({ [workerIndexKey]: String(index), MASTER_KEY: masterKey.key.toString('hex') });
    slots.set(worker, index);
  };
  cluster.on('exit', (worker, code, signal) => {
    const index = slots.get(worker);
    slots.delete(worker);
    if (isStopping) {
      if (slots.size === 0) process.exit(0);
      return;
    }
    if (index === undefined) return;
    logger.error({ worker: index, code, signal }, `gateway process ${index} exited; starting it again in 1 s`);
    setTimeout(() => {
      if (!isStopping) fork(index);
    }, 1000);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (isStopping) return;
    isStopping = true;
    logger.info({ signal, processes: slots.size }, 'shutting down the gateway processes');
    if (slots.size === 0) process.exit(0);
    for (const worker of slots.keys()) worker.process.kill('SIGTERM');
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  for (let index = 0; index < config.processes; index += 1) fork(index);
  logger.info({ processes: config.processes, port: config.port }, `starting ${config.processes} gateway processes`);
}
