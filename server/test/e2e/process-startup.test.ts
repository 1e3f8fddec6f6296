import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { parseConfig } from '../../src/config/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { spawnGateway, spawnGatewayProcess, readStream, waitForListening } from '../support/gateway-process.ts';
import { runCli } from '../support/run-cli.ts';
import { createTestDatabase, testPostgresUrl } from '../support/test-databases.ts';

const cliPath = new URL('../../src/cli/main.ts', import.meta.url).pathname;

/** A stack trace line: the operator must get one clear sentence, never only a trace. */
const stackTraceLine = /^\s+at .+\(?.+:\d+:\d+\)?$/m;

/** A loopback port with nothing listening on it. */
async function findClosedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the gateway process refuses bad start-up conditions with one clear message', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  after(async () => {
    for (const cleanup of cleanups) await cleanup();
  });
  const newDataDir = () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-startup-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    return dataDir;
  };

  test('an invalid configuration exits 2 naming every bad key', async () => {
    const gateway = spawnGateway({
      DATA_DIR: newDataDir(),
      PORT: 'eighty',
      SANDBOX: 'maybe',
      MASTER_KEY: 'short',
      REDIS_URL: 'http://not-redis',
      WELCOME_BALANCE_USD: '0.0000001',
    });
    assert.deepEqual(await gateway.exited, { code: 2, signal: null });
    const output = gateway.output();
    for (const key of ['PORT', 'SANDBOX', 'MASTER_KEY', 'REDIS_URL', 'WELCOME_BALANCE_USD']) {
      assert.match(output, new RegExp(`^  - ${key}: `, 'm'), `${key} is named:\n${output}`);
    }
    assert.match(output, /^gateway: invalid configuration:/);
    assert.doesNotMatch(output, stackTraceLine);
  });

  test('an unreachable or missing database exits 1 saying so', async () => {
    const closedPort = await findClosedPort();
    const refused = spawnGateway({
      DATA_DIR: newDataDir(),
      PORT: '0',
      DATABASE_URL: `postgres://postgres@127.0.0.1:${closedPort}/gateway`,
    });
    assert.deepEqual(await refused.exited, { code: 1, signal: null });
    assert.equal(
      refused.output().trim(),
      'gateway: could not start: the database refused the connection (is PostgreSQL running at DATABASE_URL?)',
    );
    const missingUrl = new URL(testPostgresUrl());
    missingUrl.pathname = `/missing_${randomBytes(4).toString('hex')}`;
    const missing = spawnGateway({ DATA_DIR: newDataDir(), PORT: '0', DATABASE_URL: missingUrl.toString() });
    assert.deepEqual(await missing.exited, { code: 1, signal: null });
    assert.equal(
      missing.output().trim(),
      'gateway: could not start: the database named in DATABASE_URL does not exist',
    );
  });

  test('a port in use exits 1 saying so', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => holder.close(() => resolve())));
    const { port } = holder.address() as { port: number };
    const gateway = spawnGateway({ DATA_DIR: newDataDir(), PORT: String(port), SANDBOX: 'on' });
    assert.deepEqual(await gateway.exited, { code: 1, signal: null });
    assert.match(
      gateway.output(),
      new RegExp(`^gateway: could not start: port ${port} is already in use \\(set PORT to another port\\)$`, 'm'),
    );
    assert.doesNotMatch(gateway.output(), stackTraceLine);
  });

  test('an unreachable REDIS_URL exits 1 naming Redis, without ioredis stack traces', async () => {
    const closedPort = await findClosedPort();
    const gateway = spawnGateway({
      DATA_DIR: newDataDir(),
      PORT: '0',
      SANDBOX: 'on',
      REDIS_URL: `redis://:secret-password@127.0.0.1:${closedPort}`,
    });
    assert.deepEqual(await gateway.exited, { code: 1, signal: null });
    const output = gateway.output();
    assert.match(
      output,
      new RegExp(
        `^gateway: could not start: cannot reach Redis at redis://127\\.0\\.0\\.1:${closedPort} \\(REDIS_URL\\)`,
        'm',
      ),
    );
    assert.doesNotMatch(output, /Unhandled error event/);
    assert.doesNotMatch(output, stackTraceLine);
    assert.doesNotMatch(output, /secret-password/, 'the Redis password is not printed');
    assert.doesNotMatch(output, /gateway listening/);
  });

  test('a master key other than the one the database was first run with is refused by the CLI and the server', async () => {
    const database = await createTestDatabase('postgres');
    cleanups.push(database.drop);
    const firstMachine = newDataDir();
    const first = spawnGateway({ ...database.environment, DATA_DIR: firstMachine, PORT: '0', SANDBOX: 'on' });
    await waitForListening(first);
    first.child.kill('SIGTERM');
    assert.equal((await first.exited).code, 0);
    assert.ok(existsSync(path.join(firstMachine, 'master.key')), 'the first start generated the key');

    // A second machine against the same database, without the key: the CLI must not generate another one.
    const secondMachine = newDataDir();
    const routeAdd = ['route', 'add', '--model', 'gpt-4o', '--provider', 'openai'];
    const routeArgs = [...routeAdd, '--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'sk-live-credential'];
    const withoutKey = await runCli(parseConfig({ ...database.environment, DATA_DIR: secondMachine }), routeArgs);
    assert.equal(withoutKey.exitCode, 1, withoutKey.stderr);
    assert.match(withoutKey.stderr, /^error: no master key: MASTER_KEY is not set .* set MASTER_KEY to that key/m);
    assert.equal(existsSync(path.join(secondMachine, 'master.key')), false, 'the CLI generated no other key');

    const otherKey = randomBytes(32).toString('hex');
    const cli = spawnGatewayProcess({
      command: process.execPath,
      args: ['--disable-warning=ExperimentalWarning', cliPath, ...routeArgs],
      environment: {
        PATH: process.env.PATH ?? '',
        ...database.environment,
        DATA_DIR: secondMachine,
        MASTER_KEY: otherKey,
        ALLOW_PRIVATE_UPSTREAMS: 'true',
      },
    });
    assert.deepEqual(await cli.exited, { code: 1, signal: null });
    assert.match(cli.output(), /^error: the master key \(from MASTER_KEY\) is not the one this database's vendor/m);
    assert.doesNotMatch(cli.output(), /sk-live-credential/);

    const server = spawnGateway({
      ...database.environment,
      DATA_DIR: secondMachine,
      MASTER_KEY: otherKey,
      PORT: '0',
      SANDBOX: 'on',
    });
    assert.deepEqual(await server.exited, { code: 1, signal: null });
    assert.match(server.output(), /^gateway: could not start: the master key \(from MASTER_KEY\) is not the one/m);
    assert.doesNotMatch(server.output(), stackTraceLine);
    assert.doesNotMatch(server.output(), new RegExp(otherKey));

    // With the key of the first machine, the same command works.
    const sameKey = spawnGatewayProcess({
      command: process.execPath,
      args: ['--disable-warning=ExperimentalWarning', cliPath, ...routeArgs],
      environment: {
        PATH: process.env.PATH ?? '',
        ...database.environment,
        DATA_DIR: firstMachine,
        ALLOW_PRIVATE_UPSTREAMS: 'true',
      },
    });
    assert.deepEqual(await sameKey.exited, { code: 0, signal: null }, sameKey.output());
  });

  test('SHUTDOWN_GRACE_MS cuts a stalled stream, then the gateway settles it and exits 0', async () => {
    const dataDir = newDataDir();
    const config = parseConfig({ DATA_DIR: dataDir });
    const created = await runCli(config, [
      'user',
      'create',
      '--email',
      'g@example.com',
      '--password',
      'long enough password',
      '--balance-usd',
      '5',
    ]);
    assert.equal(created.exitCode, 0, created.stderr);
    const key = /sk-[A-Za-z0-9_-]+/.exec(
      (await runCli(config, ['key', 'create', '--email', 'g@example.com'])).stdout,
    )?.[0];
    assert.ok(key);
    const gateway = spawnGateway({
      DATA_DIR: dataDir,
      PORT: '0',
      SANDBOX: 'on',
      LOG_LEVEL: 'info',
      SHUTDOWN_GRACE_MS: '500',
    });
    const url = await waitForListening(gateway);
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-4o',
        stream: true,
        messages: [{ role: 'user', content: 'Stall forever [sim:stall-after=2]' }],
      }),
    });
    assert.equal(response.status, 200);
    let requestId: string | undefined;
    const text = await readStream(response, (soFar) => {
      if (requestId !== undefined) return;
      requestId = /"id":"chatcmpl-([^"]+)"/.exec(soFar)?.[1];
      if (requestId !== undefined) gateway.child.kill('SIGTERM');
    });
    assert.ok(requestId, 'the stream started before the stall');
    assert.ok(!text.includes('data: [DONE]'), 'the stalled stream was cut, not finished');
    assert.deepEqual(await gateway.exited, { code: 0, signal: null }, gateway.output());
    const handle = openDatabase(config.database);
    try {
      const record = await findUsageRecord(handle.db, requestId);
      assert.ok(record, 'the cut request was settled and recorded before exit');
      assert.notEqual(record.status, 'completed');
      const user = await handle.db.selectFrom('users').select('balance_micros').executeTakeFirstOrThrow();
      assert.equal(
        user.balance_micros,
        5_000_000 - record.cost_micros,
        'the balance holds exactly the recorded charge',
      );
    } finally {
      await handle.close();
    }
  });
});
