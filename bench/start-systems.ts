import path from 'node:path';
import type { BenchOptions } from './bench-options.ts';
import { splitChatUrl, type BenchTarget } from './load/bench-target.ts';
import { startBenchGateway } from './start-bench-gateway.ts';
import { startPostgresAndRedis } from './start-postgres-and-redis.ts';
import { startNodeProcess } from './start-process.ts';

/** Everything one run measures, on loopback: the mock upstream, the raw floor and the gateways. */
export type BenchSystems = {
  mockUrl: string;
  upstream: BenchTarget;
  floor: BenchTarget;
  /** The systems judged against the targets: our gateway on SQLite, on PostgreSQL + Redis, another gateway. */
  gateways: BenchTarget[];
  /** Systems that could not be started, with the reason shown in the table. */
  notRun: Map<string, string>;
  /** What the memory figures measure: each start gives a fresh process (another gateway's is its running one). */
  memorySubjects: MemorySubject[];
};

export type MemorySubject = {
  label: string;
  start: () => Promise<{ target: BenchTarget; stop: () => Promise<void> }>;
};

const chatPath = '/v1/chat/completions';
const upstreamModel = 'mock-model';
const sqliteLabel = 'gateway (SQLite)';
const postgresBaseLabel = 'gateway (PostgreSQL + Redis)';

/** Starts every system; each started process registers its clean-up in `cleanups` at once. */
export async function startSystems(input: {
  options: BenchOptions;
  environment: { postgresUrl: string | undefined; redisUrl: string | undefined };
  cleanups: (() => Promise<void>)[];
  log: (line: string) => void;
}): Promise<BenchSystems> {
  const { options, cleanups, log } = input;
  // `--processes N` runs the PostgreSQL + Redis gateway as N processes on one port (PROCESSES, docs/operations.md).
  const postgresLabel =
    options.processes > 1 ? `${postgresBaseLabel.slice(0, -1)}, ${options.processes} processes)` : postgresBaseLabel;
  const processesEnvironment = { PROCESSES: String(options.processes) };
  const mock = await startNodeProcess({
    args: [path.join(import.meta.dirname, 'processes/mock-upstream.ts'), String(options.mockPort)],
  });
  cleanups.push(mock.stop);
  const floor = await startNodeProcess({
    args: [path.join(import.meta.dirname, 'processes/floor-proxy.ts'), mock.url, upstreamModel],
  });
  cleanups.push(floor.stop);
  log(`mock upstream at ${mock.url}, raw floor at ${floor.url}; starting the gateway (SQLite)`);
  const gateway = await startBenchGateway({
    upstreamUrl: mock.url,
    nodeArgs: options.gatewayNodeArgs,
    ...(options.cpuProfileDir ? { cpuProfileDir: path.resolve(options.cpuProfileDir) } : {}),
  });
  cleanups.push(gateway.close);
  const target = (label: string, process: { url: string; pid: number }, key: string, model: string): BenchTarget => ({
    label,
    origin: process.url,
    path: chatPath,
    apiKey: key,
    model,
    pid: process.pid,
  });
  const gateways = [target(sqliteLabel, gateway, gateway.apiKey, gateway.model)];
  const fresh = (label: string, settings: Omit<Parameters<typeof startBenchGateway>[0], 'upstreamUrl' | 'nodeArgs'>) =>
    ({
      label,
      start: async () => {
        const process = await startBenchGateway({
          upstreamUrl: mock.url,
          nodeArgs: options.gatewayNodeArgs,
          ...settings,
        });
        cleanups.push(process.close);
        return { target: target(label, process, process.apiKey, process.model), stop: process.close };
      },
    }) satisfies MemorySubject;
  const memorySubjects: MemorySubject[] = [
    fresh(sqliteLabel, {}),
    fresh(`${sqliteLabel}, MEMORY_MODE=lean`, {
      environment: { MEMORY_MODE: 'lean', NODE_OPTIONS: '--max-semi-space-size=4' },
    }),
  ];
  const notRun = new Map<string, string>();
  if (options.isPostgresSkipped) notRun.set(postgresLabel, 'not run: --no-postgres');
  else {
    const services = await startPostgresAndRedis(input.environment);
    if (!services.isAvailable) notRun.set(postgresLabel, services.reason);
    else {
      cleanups.push(services.stop);
      log('starting the gateway (PostgreSQL + Redis)');
      const database = async () => ({ databaseUrl: await services.newDatabase(), redisUrl: services.redisUrl });
      const scaled = await startBenchGateway({
        upstreamUrl: mock.url,
        nodeArgs: options.gatewayNodeArgs,
        database: await database(),
        environment: processesEnvironment,
        ...(options.cpuProfileDir ? { cpuProfileDir: path.resolve(options.cpuProfileDir) } : {}),
      });
      cleanups.push(scaled.close);
      gateways.push(target(postgresLabel, scaled, scaled.apiKey, scaled.model));
      memorySubjects.push({
        label: postgresLabel,
        start: async () =>
          fresh(postgresLabel, { database: await database(), environment: processesEnvironment }).start(),
      });
    }
  }
  if (options.external) {
    const external: BenchTarget = {
      label: `target ${new URL(options.external.url).host}`,
      ...splitChatUrl(options.external.url),
      apiKey: options.external.key,
      model: options.external.model,
      pid: options.external.pid,
      extraHeaders: options.external.headers,
    };
    gateways.push(external);
    if (external.pid !== undefined) {
      memorySubjects.push({ label: external.label, start: async () => ({ target: external, stop: async () => {} }) });
    }
  }
  return {
    mockUrl: mock.url,
    upstream: target('upstream alone', mock, 'sk-bench', upstreamModel),
    floor: target('raw floor', floor, 'sk-bench', gateway.model),
    gateways,
    notRun,
    memorySubjects,
  };
}
