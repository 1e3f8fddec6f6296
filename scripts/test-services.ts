import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A throwaway PostgreSQL cluster and Redis server on loopback for one test run; nothing is left behind. */
export type TestServices = { postgresUrl: string; redisUrl: string; stop: () => void };

export async function startTestServices(): Promise<TestServices> {
  const postgres = await startPostgres();
  try {
    const redis = await startRedis();
    return {
      postgresUrl: postgres.url,
      redisUrl: redis.url,
      stop: () => {
        redis.stop();
        postgres.stop();
      },
    };
  } catch (error) {
    postgres.stop();
    throw error;
  }
}

export async function freePort(): Promise<number> {
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

function postgresBinary(name: string): string {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql');
  return path.join('/usr/lib/postgresql', versions[0] ?? '', 'bin', name);
}

/** initdb refuses to run as root, so as root the cluster belongs to the `postgres` system user. */
function postgresToolCommand(args: readonly string[]): { command: string; commandArgs: string[] } {
  const isRoot = process.getuid?.() === 0;
  return {
    command: isRoot ? 'runuser' : (args[0] ?? ''),
    commandArgs: isRoot ? ['-u', 'postgres', '--', ...args] : args.slice(1),
  };
}

function runPostgresTool(args: readonly string[]): void {
  const { command, commandArgs } = postgresToolCommand(args);
  const result = spawnSync(command, commandArgs, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${args[0]} failed (${result.status}): ${result.stderr || result.stdout}`);
  }
}

/** Like runPostgresTool, without blocking the event loop (the fault suite keeps its calls flowing meanwhile). */
function runPostgresToolAsync(args: readonly string[]): Promise<void> {
  const { command, commandArgs } = postgresToolCommand(args);
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (data: Buffer) => (stderr += data.toString()));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args[0]} failed (${code}): ${stderr}`)),
    );
  });
}

/**
 * Also used by the fault suite (server/test/faults/), which restarts the cluster on its port mid-burst: it asks for
 * a `durable` cluster, since with `fsync` and `synchronous_commit` off an immediate restart loses commits a client
 * was told had happened, which no production database does.
 */
export async function startPostgres(
  options: { durable?: boolean } = {},
): Promise<{ url: string; stop: () => void; restart: () => Promise<void> }> {
  const directory = mkdtempSync(path.join(tmpdir(), 'gateway-test-pg-'));
  if (process.getuid?.() === 0) {
    const user = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const group = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    chownSync(directory, Number(user.stdout.trim()), Number(group.stdout.trim()));
  }
  const dataDir = path.join(directory, 'data');
  const port = await freePort();
  runPostgresTool([
    postgresBinary('initdb'),
    '-D',
    dataDir,
    '-A',
    'trust',
    '-U',
    'postgres',
    '--no-sync',
    '-E',
    'UTF8',
  ]);
  const speed = options.durable === true ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  const serverOptions = `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1${speed} -c max_connections=300`;
  runPostgresTool([
    postgresBinary('pg_ctl'),
    '-D',
    dataDir,
    '-o',
    serverOptions,
    '-l',
    path.join(directory, 'log'),
    '-w',
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: () =>
      runPostgresToolAsync([
        postgresBinary('pg_ctl'),
        '-D',
        dataDir,
        '-m',
        'immediate',
        '-o',
        serverOptions,
        '-l',
        path.join(directory, 'log'),
        '-w',
        'restart',
      ]),
    stop: () => {
      try {
        runPostgresTool([postgresBinary('pg_ctl'), '-D', dataDir, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}

/** On `port` when given (the fault suite restarts Redis empty on the same port). */
export async function startRedis(port?: number): Promise<{ url: string; stop: () => void }> {
  const redisPort = port ?? (await freePort());
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis-server did not start within 10 s')), 10_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`redis-server could not be started: ${error.message}`));
    });
    child.stdout?.on('data', (data: Buffer) => {
      if (data.toString().includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { url: `redis://127.0.0.1:${redisPort}`, stop: () => child.kill('SIGTERM') };
}
