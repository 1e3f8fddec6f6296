import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { vendorCredentialKeys } from '../server/src/config/config.ts';
import { readStartEnvironment, readStartNodeFlags } from './read-start-environment.ts';
import { startNodeProcess, type BenchProcess } from './start-process.ts';

/** The gateway under test in its full paid configuration, with the key and model a client uses. */
/** The bearer token bench gateways serve `/metrics` to. */
export const benchMetricsToken = 'bench-metrics-token-0123456789';

export type BenchGateway = BenchProcess & { apiKey: string; model: string; close: () => Promise<void> };

const runFile = promisify(execFile);
const repositoryRoot = path.resolve(import.meta.dirname, '..');
const benchModel = 'gpt-4o-mini';

/**
 * Starts `node server/src/main.ts` as a child process: sandbox off (no simulator routes), one operator route to the
 * mock upstream, a user with a large balance and a key, and a per-key limit so high that the limiter runs on every
 * request but never refuses. Set up through the operator CLI, as an operator would.
 */
export async function startBenchGateway(input: {
  upstreamUrl: string;
  database?: { databaseUrl: string; redisUrl: string };
  cpuProfileDir?: string;
  nodeArgs: readonly string[];
  /** Settings on top of the bench's own, e.g. `MEMORY_MODE`. */
  environment?: Record<string, string>;
}): Promise<BenchGateway> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-bench-'));
  const port = await findFreePort();
  // BENCH_LOG_DIR keeps each gateway's log (warnings and errors at the bench's level) in `gateway-<port>.log` there.
  const logDirectory = process.env['BENCH_LOG_DIR'];
  const env: Record<string, string> = {
    ...Object.fromEntries(vendorCredentialKeys.map((key) => [key, ''])),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SANDBOX: 'off',
    LOG_LEVEL: 'warn',
    MASTER_KEY: randomBytes(32).toString('hex'),
    ALLOW_PRIVATE_UPSTREAMS: 'true',
    DEFAULT_REQUESTS_PER_MINUTE: '1000000',
    ACCOUNT_REQUESTS_PER_MINUTE: '1000000',
    ACCOUNT_TOKENS_PER_MINUTE: '1000000000',
    ACCOUNT_CONCURRENT_REQUESTS: '100000',
    METRICS_TOKEN: benchMetricsToken,
    DATABASE_URL: input.database?.databaseUrl ?? '',
    REDIS_URL: input.database?.redisUrl ?? '',
    ...readStartEnvironment(),
    ...input.environment,
  };
  try {
    const cli = (...args: string[]) => runCli(env, args);
    await cli(
      'user',
      'create',
      '--email',
      'bench@example.com',
      '--password',
      'bench password 1234',
      '--balance-usd',
      '1000000',
    );
    const apiKey = (await cli('key', 'create', '--email', 'bench@example.com', '--name', 'bench')).trim();
    await cli(
      'route',
      'add',
      '--model',
      benchModel,
      '--provider',
      'openai',
      '--base-url',
      `${input.upstreamUrl}/v1`,
      '--api-key',
      'sk-bench-upstream',
      '--upstream-model',
      'mock-model',
    );
    const profileArgs = input.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${input.cpuProfileDir}`] : [];
    const gateway = await startNodeProcess({
      args: [
        ...readStartNodeFlags(),
        ...input.nodeArgs,
        ...profileArgs,
        path.join(repositoryRoot, 'server/src/main.ts'),
      ],
      env,
      url: `http://127.0.0.1:${port}`,
      readyPath: '/readyz',
      ...(logDirectory ? { logFile: path.join(logDirectory, `gateway-${port}.log`) } : {}),
    });
    return {
      ...gateway,
      apiKey,
      model: benchModel,
      close: async () => {
        await gateway.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

async function runCli(env: Record<string, string>, args: readonly string[]): Promise<string> {
  const cliPath = path.join(repositoryRoot, 'server/src/cli/main.ts');
  const result = await runFile(process.execPath, ['--disable-warning=ExperimentalWarning', cliPath, ...args], {
    env: { ...process.env, ...env },
  });
  return result.stdout;
}

export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
