import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startPostgres, startRedis } from '../../../scripts/test-services.ts';
import { spawnGateway, waitForListening, type GatewayProcess } from '../support/gateway-process.ts';
import { startCuttableProxy, type CuttableProxy } from './cuttable-proxy.ts';

/**
 * The fault suite's world, all on loopback and each part its own OS process: a PostgreSQL cluster and a redis-server
 * of its own (so it can restart them), a vendor simulator, and gateway nodes (the real `server/src/main.ts`) on
 * PostgreSQL + Redis with their own DATA_DIRs. The last node reaches Redis through a proxy the test can cut.
 */
export type FaultServices = {
  postgresUrl: string;
  redisPort: number;
  simulatorUrl: string;
  masterKey: string;
  restartPostgres: () => Promise<void>;
  /** Stops redis-server and starts an empty one on the same port (a restart without persistence). */
  restartRedisEmpty: () => Promise<void>;
  cli: (args: readonly string[]) => Promise<{ exitCode: number; stdout: string; stderr: string }>;
  stop: () => Promise<void>;
};

export type FaultNode = { name: string; process: GatewayProcess; url: string; dataDir: string };
export type FaultNodes = { nodes: FaultNode[]; redisProxy: CuttableProxy; stop: () => Promise<void> };

const cliPath = new URL('../../src/cli/main.ts', import.meta.url).pathname;
const simulatorPath = new URL('simulator-process.ts', import.meta.url).pathname;
/** Slow enough that a burst has streams open when the fault lands; fast enough to keep the suite short. */
const chunkDelayMs = 40;

function runNode(args: readonly string[], environment: Record<string, string>) {
  return new Promise<{ exitCode: number; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', ...args], {
      env: { PATH: process.env.PATH ?? '', ...environment },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ exitCode: code ?? 1, stdout, stderr }));
  });
}

async function startSimulatorProcess(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', simulatorPath], {
    env: { PATH: process.env.PATH ?? '', SIMULATOR_CHUNK_DELAY_MS: String(chunkDelayMs) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (data: Buffer) => {
      output += data.toString();
      const match = /simulator listening on (\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.stderr.on('data', (data: Buffer) => (output += data.toString()));
    void exited.then(() => reject(new Error(`the simulator exited before listening:\n${output}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function startFaultServices(): Promise<FaultServices> {
  const postgres = await startPostgres({ durable: true });
  let redis = await startRedis();
  const redisPort = Number(new URL(redis.url).port);
  const simulator = await startSimulatorProcess();
  const masterKey = randomBytes(32).toString('hex');
  const cliDataDir = mkdtempSync(path.join(tmpdir(), 'gateway-faults-cli-'));
  return {
    postgresUrl: postgres.url,
    redisPort,
    simulatorUrl: simulator.url,
    masterKey,
    restartPostgres: postgres.restart,
    restartRedisEmpty: async () => {
      redis.stop();
      // The port is free once the old server has closed its listening socket.
      for (let attempt = 0; ; attempt += 1) {
        try {
          redis = await startRedis(redisPort);
          return;
        } catch (error) {
          if (attempt >= 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    },
    cli: (args) =>
      runNode([cliPath, ...args], {
        DATA_DIR: cliDataDir,
        DATABASE_URL: postgres.url,
        MASTER_KEY: masterKey,
        ALLOW_PRIVATE_UPSTREAMS: 'true',
      }),
    stop: async () => {
      await simulator.stop();
      redis.stop();
      postgres.stop();
      rmSync(cliDataDir, { recursive: true, force: true });
    },
  };
}

function nodeEnvironment(services: FaultServices, dataDir: string, redisPort: number): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    SANDBOX: 'off',
    LOG_LEVEL: 'info',
    DATA_DIR: dataDir,
    DATABASE_URL: services.postgresUrl,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    MASTER_KEY: services.masterKey,
    ALLOW_PRIVATE_UPSTREAMS: 'true',
    SHUTDOWN_GRACE_MS: '2000',
    DEFAULT_REQUESTS_PER_MINUTE: '100000',
    ACCOUNT_REQUESTS_PER_MINUTE: '100000',
    ACCOUNT_CONCURRENT_REQUESTS: '1000',
  };
}

/** Starts a gateway node on a fresh DATA_DIR, reaching Redis at `redisPort`. */
export async function startFaultNode(services: FaultServices, name: string, redisPort: number): Promise<FaultNode> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `gateway-faults-${name}-`));
  const gateway = spawnGateway(nodeEnvironment(services, dataDir, redisPort));
  return { name, process: gateway, url: await waitForListening(gateway), dataDir };
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves whether the node exited on its own. */
export async function stopFaultNode(node: FaultNode, graceMs = 10_000): Promise<boolean> {
  let isClean = true;
  if (node.process.child.exitCode === null && node.process.child.signalCode === null) {
    node.process.child.kill('SIGTERM');
    const timer = setTimeout(() => {
      isClean = false;
      node.process.child.kill('SIGKILL');
    }, graceMs);
    await node.process.processExited;
    clearTimeout(timer);
  }
  rmSync(node.dataDir, { recursive: true, force: true });
  if (!isClean) process.stdout.write(`fault suite: ${node.name} did not exit within ${graceMs} ms of SIGTERM\n`);
  return isClean;
}

/** Three nodes; the first migrates the database alone, then two more start, the last behind the cuttable proxy. */
export async function startFaultNodes(services: FaultServices): Promise<FaultNodes> {
  const redisProxy = await startCuttableProxy({ host: '127.0.0.1', port: services.redisPort });
  const started = await Promise.allSettled([startFaultNode(services, 'node-1', services.redisPort)]);
  if (started[0]?.status === 'fulfilled') {
    started.push(
      ...(await Promise.allSettled([
        startFaultNode(services, 'node-2', services.redisPort),
        startFaultNode(services, 'node-3', redisProxy.port),
      ])),
    );
  }
  const failed = started.find((result) => result.status === 'rejected');
  const running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  if (failed) {
    await Promise.all(running.map((node) => stopFaultNode(node)));
    await redisProxy.close();
    throw failed.reason;
  }
  const [first, ...rest] = running as [FaultNode, ...FaultNode[]];
  const nodes = [first, ...rest];
  return {
    nodes,
    redisProxy,
    stop: async () => {
      await Promise.all(nodes.map((node) => stopFaultNode(node)));
      await redisProxy.close();
    },
  };
}
