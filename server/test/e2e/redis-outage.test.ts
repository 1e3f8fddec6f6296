import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { spawnGateway, waitForListening } from '../support/gateway-process.ts';
import { testRedisUrl } from '../support/test-redis.ts';

/** A loopback TCP relay to the test Redis that the test can take down and bring back on the same port. */
function createRedisRelay(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const start = async () => {
    server = createServer((client) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  };
  const stop = async () => {
    const closing = new Promise<void>((resolve) => server?.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closing;
  };
  return { start, stop, port: () => port };
}

async function readReadiness(url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${url}/readyz`);
  return { status: response.status, body: await response.json() };
}

/** Polls /readyz until it answers `status` (a generous bound only detects a hang). */
async function waitForReadiness(url: string, status: number): Promise<unknown> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const readiness = await readReadiness(url);
    if (readiness.status === status) return readiness.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`/readyz never answered ${status}`);
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-redis-outage-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

test('a Redis outage makes /readyz unready, logs a rate-limited line instead of stack traces, and recovers', async () => {
  const relay = createRedisRelay(new URL(testRedisUrl()));
  await relay.start();
  const gateway = spawnGateway({
    DATA_DIR: dataDir,
    PORT: '0',
    SANDBOX: 'on',
    LOG_LEVEL: 'info',
    REDIS_URL: `redis://127.0.0.1:${relay.port()}`,
  });
  try {
    const url = await waitForListening(gateway);
    assert.deepEqual(await readReadiness(url), { status: 200, body: { status: 'ready' } });

    await relay.stop();
    assert.deepEqual(await waitForReadiness(url, 503), { status: 'redis_unreachable' });
    const errorLines = gateway.output().match(/"msg":"Redis connection error; retrying"/g) ?? [];
    assert.ok(errorLines.length >= 1, 'the outage is logged');
    assert.ok(errorLines.length <= 2, `the log is rate-limited, got ${errorLines.length} lines`);
    assert.doesNotMatch(gateway.output(), /Unhandled error event/);
    assert.doesNotMatch(gateway.output(), /^\s+at .+:\d+:\d+\)?$/m);

    await relay.start();
    assert.deepEqual(await waitForReadiness(url, 200), { status: 'ready' });
    for (let attempt = 0; attempt < 100 && !gateway.output().includes('Redis connection restored'); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.match(gateway.output(), /"msg":"Redis connection restored"/);
  } finally {
    gateway.child.kill('SIGTERM');
    await gateway.exited;
    await relay.stop();
  }
  assert.equal((await gateway.exited).code, 0, gateway.output());
});
