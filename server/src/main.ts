import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { ConfigError, readConfig, type Config } from './config/config.ts';
import { createLogger } from './logger.ts';
import { refuseProcesses, startProcesses, workerConfig } from './start-processes.ts';
import { StartupError } from './startup-error.ts';
import {
  countOpenSockets,
  exposeMemoryReducingCollection,
  watchHeapForManyConnections,
} from './watch-heap-for-many-connections.ts';

/** Reads the configuration, or prints every bad key and exits 2. */
export function readConfigOrExit(): Config {
  try {
    return readConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`gateway: ${error.message}\n`);
    process.exit(2);
  }
}

/** Starts the gateway, logs one clear line on where it listens, and shuts down cleanly on SIGTERM/SIGINT. */
export async function runGateway(startConfig: Config): Promise<void> {
  const logger = createLogger({ level: startConfig.logLevel });
  const refusal = refuseProcesses(startConfig);
  if (refusal !== undefined) {
    process.stderr.write(`gateway: ${refusal}\n`);
    process.exit(2);
  }
  if (startConfig.processes > 1 && cluster.isPrimary) {
    await startProcesses(startConfig, logger, fileURLToPath(import.meta.url));
    return;
  }
  const index = cluster.isWorker ? startConfig.workerIndex : undefined;
  const config = index === undefined ? { ...startConfig, workerIndex: undefined } : workerConfig(startConfig, index);
  applyMemoryMode(config);
  // Loaded here, not on import, so the launcher of PROCESSES=N (above) stays a small process: it forwards connections
  // and merges metrics, and has no use for the gateway's modules.
  const { startGateway } = await import('./start-gateway.ts');
  const { describeWebSearch } = await import('./search/start-web-search.ts');
  const { announceServing } = await import('./join-processes.ts');
  let gateway;
  try {
    gateway = await startGateway(config, logger);
  } catch (error) {
    process.stderr.write(`gateway: could not start: ${describeStartError(error, config.port)}\n`);
    process.exit(1);
  }
  if (index !== undefined) announceServing();
  const webSearch = describeWebSearch({ ...config.search, isSandbox: config.isSandbox });
  logger.info(
    { url: gateway.url, database: gateway.database.description, sandbox: config.isSandbox, webSearch },
    `gateway listening on ${gateway.url} (database: ${gateway.database.description}; sandbox mode: ${config.isSandbox ? 'on, models are served by simulators' : 'off'}; web search: ${webSearch})`,
  );
  // Starting leaves about 40 MB of garbage (module sources as read and as type-stripped, migrations, the price data's
  // parse) and a young generation grown to its cap, which V8 would keep until much later.
  const collectGarbage = exposeMemoryReducingCollection();
  collectGarbage();
  if (config.memoryMode !== 'lean') {
    const check = watchHeapForManyConnections({ countOpenSockets, setV8Flags: setFlagsFromString, collectGarbage });
    setInterval(check, 1_000).unref();
  }
  if (!hasSemiSpaceCap(process.execArgv, config.nodeOptions)) {
    logger.warn(
      "V8's young generation is not capped: start node with --max-semi-space-size=16 (npm start sets it in NODE_OPTIONS; 4 for the least memory) or resident memory under load grows by about 150 MB",
    );
  }
  let isStopping = false;
  const stop = (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    logger.info({ signal }, 'shutting down: no new connections, waiting for in-flight requests');
    gateway.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/**
 * V8 sizes the young generation when the process starts, so a semi-space cap set from inside the running gateway
 * (`v8.setFlagsFromString`) has no effect: the cap must be on Node's command line or in NODE_OPTIONS, which
 * `npm start` sets to a 16 MB semi-space (decisions 1650, 1900). Without it V8 grows each semi-space to 64 MB on a machine
 * of this size under load and the resident peak of the c=64 benchmark rises from about 230 to about 360 MB, so the gateway says so once it
 * listens.
 * `lean` also asks V8 to collect the old generation sooner (memory saver mode, which V8 reads at each collection).
 */
function applyMemoryMode(config: Config): void {
  if (config.memoryMode === 'lean') setFlagsFromString('--memory-saver-mode');
}

/** Whether Node was started with a young-generation cap, on its command line or in NODE_OPTIONS. */
export function hasSemiSpaceCap(execArgv: readonly string[], nodeOptions: string): boolean {
  const flags = [...execArgv, ...nodeOptions.split(/\s+/)];
  return flags.some((flag) => flag.startsWith('--max-semi-space-size='));
}

function describeStartError(error: unknown, port: number): string {
  if (error instanceof StartupError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return `port ${port} is already in use (set PORT to another port)`;
  if (code === 'EACCES') return `no permission to listen on port ${port}`;
  if (code === 'ECONNREFUSED') return 'the database refused the connection (is PostgreSQL running at DATABASE_URL?)';
  if (code === 'ENOTFOUND') return 'the database host in DATABASE_URL was not found';
  if (code === '28P01') return 'the database rejected the user name or password in DATABASE_URL';
  if (code === '3D000') return 'the database named in DATABASE_URL does not exist';
  return error instanceof Error ? error.message : String(error);
}

// `npm start` runs scripts/start.ts, which builds the web app and then calls runGateway in its own process.
if (import.meta.main) await runGateway(readConfigOrExit());
