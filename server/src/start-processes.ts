import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import type { Config } from './config/config.ts';
import { loadMasterKey } from './config/master-key.ts';
import type { Logger } from 'pino';
import { createGatewayMetrics, type GatewayMetrics } from './gather-gateway-metrics.ts';
import { startMetricsServer } from './http/metrics.ts';
import { isProcessMessage, type ProcessMessage } from './process-messages.ts';

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
 * (each process journals and holds credit under its own identity; a restarted slot takes back what it left). Its
 * `workerIndex` tells it that the launcher serves `METRICS_LISTEN` for all of them (one address cannot be bound by
 * every process).
 */
export function workerConfig(config: Config, index: number): Config {
  return { ...config, dataDir: path.join(config.dataDir, 'workers', String(index)), workerIndex: index };
}

/**
 * The primary of `PROCESSES=N`: forks N gateways running main.ts, which share the port through node:cluster (the
 * primary accepts connections and hands them round-robin to the workers). The master key is resolved once here
 * (generated into DATA_DIR on first start) and handed down, so every process seals with the same key. A worker that
 * exits while the primary runs is started again in its slot after a second; SIGTERM/SIGINT stop all of them. The
 * primary also serves the whole gateway's metrics (`METRICS_LISTEN`, and to the workers for the public `/metrics`)
 * and tells every worker which slots serve (for `/healthz` and `/readyz`). It loads nothing of the gateway itself.
 */
export async function startProcesses(config: Config, logger: Logger, mainFile: string): Promise<void> {
  const masterKey = loadMasterKey({ masterKeyHex: config.masterKeyHex, dataDir: config.dataDir });
  if (masterKey.source === 'generated') {
    logger.warn(
      { file: masterKey.filePath },
      'MASTER_KEY is not set: generated one; back it up, it seals vendor credentials',
    );
  }
  cluster.setupPrimary({ exec: mainFile });
  const slots = new Map<Worker, number>();
  const serving = trackServing(slots, config.processes);
  const metrics = createGatewayMetrics({ workers: () => slots, processes: config.processes, timeoutMs: 2000 });
  await serveMetricsAddress(config, logger, metrics);
  let isStopping = false;
  const fork = (index: number) => {
    const worker = cluster.fork({ [workerIndexKey]: String(index), MASTER_KEY: masterKey.key.toString('hex') });
    slots.set(worker, index);
    worker.on('message', (message: unknown) => {
      if (!isProcessMessage(message)) return;
      if (message.type === 'gateway:serving') serving.add(worker);
      if (message.type === 'gateway:metrics-ask') void answerMetricsAsk(worker, message.id, metrics);
    });
  };
  cluster.on('exit', (worker, code, signal) => {
    const index = slots.get(worker);
    serving.remove(worker);
    metrics.retire(worker);
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

/** The slots whose process said it serves; every change is sent to every process. */
function trackServing(slots: ReadonlyMap<Worker, number>, processes: number) {
  const serving = new Set<Worker>();
  const broadcast = () => {
    const up = [...serving].map((worker) => slots.get(worker) ?? -1).filter((slot) => slot >= 0);
    const message: ProcessMessage = { type: 'gateway:processes', up: up.sort((a, b) => a - b), processes };
    for (const worker of slots.keys()) sendTo(worker, message);
  };
  return {
    add: (worker: Worker) => {
      serving.add(worker);
      broadcast();
    },
    remove: (worker: Worker) => {
      if (serving.delete(worker)) broadcast();
    },
  };
}

async function answerMetricsAsk(worker: Worker, id: number, metrics: GatewayMetrics): Promise<void> {
  const text = await metrics.read().catch(() => undefined);
  const answer: ProcessMessage = { type: 'gateway:metrics-answer', id, text };
  sendTo(worker, answer);
}

/**
 * A worker that is exiting may still look connected while its channel is already closed (on shutdown every worker
 * exits at once, and each exit is broadcast to the rest). With a callback, a failed send is passed to it instead of
 * being raised as an 'error' event that would stop the launcher; the process's exit is handled where it is reported.
 */
function sendTo(worker: Worker, message: ProcessMessage): void {
  if (worker.isConnected()) worker.send(message, () => undefined);
}

/** `METRICS_LISTEN`, bound once by the primary for the whole gateway; the process exits 1 when it cannot bind. */
async function serveMetricsAddress(config: Config, logger: Logger, metrics: GatewayMetrics): Promise<void> {
  const { listen, token } = config.metrics;
  if (listen === undefined) return;
  try {
    const server = await startMetricsServer({ source: metrics, ...listen, token });
    logger.info({ url: `${server.url}/metrics` }, 'metrics of every gateway process listening on their own address');
  } catch (error) {
    process.stderr.write(`gateway: could not serve METRICS_LISTEN: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
