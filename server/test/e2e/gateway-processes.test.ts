import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { listDescendantPids, spawnGateway, waitForListening, type GatewayProcess } from '../support/gateway-process.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';
import { testRedisUrl } from '../support/test-redis.ts';

async function findFreePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Which worker answered `/healthz` on a fresh connection (node:cluster hands connections round-robin). */
async function answeringProcess(url: string): Promise<number | undefined> {
  const response = await fetch(`${url}/healthz`, { headers: { connection: 'close' } });
  return ((await response.json()) as { worker?: number }).worker;
}

/** The distinct workers that answer `/healthz` over up to 20 fresh connections. */
async function answeringWorkers(url: string): Promise<Set<number | undefined>> {
  const seen = new Set<number | undefined>();
  for (let attempt = 0; attempt < 20 && seen.size < 2; attempt += 1) seen.add(await answeringProcess(url));
  return seen;
}

/** The value of one series in a Prometheus text page (the line that starts with `series`), or undefined. */
function seriesValue(page: string, series: string): number | undefined {
  const line = page.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** The `worker` labels that carry a series of `name` in a Prometheus text page. */
function workerLabels(page: string, name: string): string[] {
  const pattern = new RegExp(`^${name}\\{[^}]*worker="([^"]+)"`, 'gm');
  return [...new Set([...page.matchAll(pattern)].map((match) => match[1] ?? ''))].sort();
}

const healthzSeries = 'gateway_http_requests_total{route="/healthz",method="GET",status="200"}';

/**
 * `count` calls to /healthz on fresh connections: the gateway's summed counter must grow by exactly that many,
 * whichever processes served them (both must have).
 */
async function assertHealthzCounted(input: { url: string; count: number; readMetrics: () => Promise<string> }) {
  const before = seriesValue(await input.readMetrics(), healthzSeries) ?? 0;
  const workers = new Set<number | undefined>();
  for (let index = 0; index < input.count; index += 1) workers.add(await answeringProcess(input.url));
  assert.deepEqual([...workers].sort(), [0, 1], 'the calls were spread over both processes');
  assert.equal(seriesValue(await input.readMetrics(), healthzSeries), before + input.count);
}

/**
 * Polls `/readyz` until it answers 200 `degraded` (a process is down). Each try has its own short time limit: a
 * connection node:cluster hands to a process at the instant it dies is never answered.
 */
async function waitForDegradedReadiness(
  url: string,
): Promise<{ status: string; worker: number; workers_up: number[]; processes: number }> {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    const answer = await fetch(`${url}/readyz`, { headers: { connection: 'close' }, signal: AbortSignal.timeout(500) })
      .then(async (response) => ({ status: response.status, body: (await response.json()) as Record<string, unknown> }))
      .catch(() => undefined);
    if (answer?.status === 200 && answer.body['status'] === 'degraded') {
      return answer.body as { status: string; worker: number; workers_up: number[]; processes: number };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail('/readyz never said that a process was down');
}

async function call(url: string, key: string, index: number): Promise<{ status: number; costMicros: number }> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify({
      model: 'gpt-4o-mini',
      max_completion_tokens: 400,
      messages: [{ role: 'user', content: `Call ${index} [sim:words=40]` }],
    }),
  });
  const body = (await response.json()) as { usage?: { cost: number } };
  return { status: response.status, costMicros: Math.round((body.usage?.cost ?? 0) * 1e6) };
}

/**
 * PROCESSES=2 on PostgreSQL and Redis: the launcher's two gateways share one port, both answer, and a burst spread
 * over them on a balance that covers about ten calls charges exactly the sum of the answers' `usage.cost`.
 * An in-process node on the same database creates the account and reads the ledger.
 */
describe('two gateway processes on one port (PROCESSES=2)', () => {
  let seed: TestGateway;
  let gateway: GatewayProcess;
  let url: string;
  let dataDir: string;
  let metricsUrl: string;
  before(async () => {
    seed = await startTestGateway({ databaseKind: 'postgres', environment: { REDIS_URL: testRedisUrl() } });
    assert.equal(seed.config.database.kind, 'postgres');
    dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-processes-'));
    const port = await findFreePort();
    metricsUrl = `http://127.0.0.1:${await findFreePort()}/metrics`;
    gateway = spawnGateway({
      METRICS_LISTEN: new URL(metricsUrl).host,
      DATA_DIR: dataDir,
      DATABASE_URL: seed.config.database.kind === 'postgres' ? seed.config.database.url : '',
      REDIS_URL: testRedisUrl(),
      MASTER_KEY: readFileSync(path.join(seed.config.dataDir, 'master.key'), 'utf8').trim(),
      PROCESSES: '2',
      PORT: String(port),
      HOST: '127.0.0.1',
      SANDBOX: 'on',
      PRICING_RULE: 'list_minus_discount',
      // The burst tests credit: the account's concurrency slots (50 by default) must not refuse part of it.
      ACCOUNT_CONCURRENT_REQUESTS: '1000',
      LOG_LEVEL: 'info',
    });
    url = await waitForListening(gateway);
    // Both processes log their listening line; wait for the second before counting who answers.
    while ((gateway.output().match(/gateway listening on/g) ?? []).length < 2) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  after(async () => {
    gateway.child.kill('SIGTERM');
    const exit = await gateway.exited;
    await seed.close();
    rmSync(dataDir, { recursive: true, force: true });
    assert.deepEqual(exit, { code: 0, signal: null }, gateway.output());
  });

  test('both processes answer, each with its own data folder', async () => {
    const seen = await answeringWorkers(url);
    assert.equal(seen.size, 2, gateway.output());
    assert.ok(!seen.has(undefined), 'each answer names its worker');
    const nodeIds = [0, 1].map((slot) => readFileSync(path.join(dataDir, 'workers', String(slot), 'node-id'), 'utf8'));
    assert.notEqual(nodeIds[0], nodeIds[1], 'each process holds credit under its own node id');
    const health = (await (await fetch(`${url}/healthz`)).json()) as Record<string, unknown>;
    assert.deepEqual({ ...health, worker: 0 }, { status: 'ok', worker: 0, workers_up: [0, 1], processes: 2 });
    const readiness = (await (await fetch(`${url}/readyz`)).json()) as Record<string, unknown>;
    assert.equal(
      readiness['status'] === 'ready' || readiness['web_search'] !== undefined,
      true,
      'only search degrades',
    );
    assert.deepEqual(readiness['workers_up'], [0, 1]);
  });

  test('METRICS_LISTEN serves the whole gateway: counters summed over the processes, gauges per process', async () => {
    const readMetrics = async () => (await fetch(metricsUrl)).text();
    await assertHealthzCounted({ url, count: 12, readMetrics });
    const page = await readMetrics();
    assert.deepEqual(workerLabels(page, 'gateway_process_resident_memory_bytes'), ['0', '1']);
    assert.deepEqual(workerLabels(page, 'gateway_nodejs_eventloop_lag_p99_seconds'), ['0', '1']);
    assert.equal(seriesValue(page, 'gateway_worker_up{worker="0"}'), 1);
    assert.equal(seriesValue(page, 'gateway_worker_up{worker="1"}'), 1);
    assert.equal(workerLabels(page, 'gateway_http_requests_total').length, 0, 'counters are summed, not per process');
  });

  test('a burst over both charges exactly the sum of usage.cost and never overdraws', async () => {
    const probe = await seed.createUserWithKey({ balanceMicros: 10_000_000 });
    const callCostMicros = (await call(url, probe.key, 0)).costMicros;
    assert.ok(callCostMicros > 0);
    const balanceMicros = callCostMicros * 10;
    const { userId, key } = await seed.createUserWithKey({ balanceMicros });
    // As many calls as concurrent-billing.test.ts sends: with fewer, all of them can arrive while the first few hold
    // their worst case, and the count served says more about timing than about the holds.
    const outcomes = await Promise.all(Array.from({ length: 200 }, (_, index) => call(url, key, index)));
    assert.deepEqual([...new Set(outcomes.map((outcome) => outcome.status))].sort(), [200, 402]);
    const charged = outcomes.filter((outcome) => outcome.status === 200);
    const chargedMicros = charged.reduce((sum, outcome) => sum + outcome.costMicros, 0);
    const db = seed.gateway.database.db;
    // Each process writes its settled charges from its journal shortly after answering: wait for them to land.
    let ledgerMicros = await sumLedgerAccount(db, userLedgerAccount(userId));
    for (let attempt = 0; attempt < 200 && balanceMicros - ledgerMicros !== chargedMicros; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      ledgerMicros = await sumLedgerAccount(db, userLedgerAccount(userId));
    }
    assert.ok(ledgerMicros >= 0, `the balance went below zero: ${ledgerMicros} micros`);
    assert.equal(balanceMicros - ledgerMicros, chargedMicros, 'the ledger debited exactly the sum of usage.cost');
    assert.ok(charged.length >= 5, `only ${charged.length} calls were served on a balance that covers ten`);
    const user = await db
      .selectFrom('users')
      .select('balance_micros')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    assert.equal(user.balance_micros, ledgerMicros, 'the cached balance is the sum of the ledger entries');
    await assertLedgerBalanced(db);
  });

  test('a process that dies is started again in its slot', async () => {
    const listeningLines = () => (gateway.output().match(/gateway listening on/g) ?? []).length;
    const before = listeningLines();
    const [worker] = listDescendantPids(gateway.child.pid ?? 0);
    assert.ok(worker !== undefined, 'the launcher has gateway processes');
    process.kill(worker, 'SIGKILL');
    // Until it is back, the port serves through the other process, whose readiness says one of two is up.
    const degraded = await waitForDegradedReadiness(url);
    assert.equal(degraded.processes, 2);
    assert.deepEqual(degraded.workers_up, [degraded.worker], 'only the answering process is up');
    for (let attempt = 0; attempt < 600 && listeningLines() === before; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.match(gateway.output(), /gateway process [01] exited; starting it again/);
    assert.equal(listeningLines(), before + 1, gateway.output());
    const seen = await answeringWorkers(url);
    assert.equal(seen.size, 2, 'the restarted process serves beside the other');
    assert.ok(!seen.has(undefined));
  });

  test('after a restart the summed counters do not go back and no series of the dead process is left', async () => {
    const readMetrics = async () => (await fetch(metricsUrl)).text();
    const before = seriesValue(await readMetrics(), healthzSeries) ?? 0;
    const [worker] = listDescendantPids(gateway.child.pid ?? 0);
    assert.ok(worker !== undefined);
    const restarts = () => (gateway.output().match(/gateway listening on/g) ?? []).length;
    const listened = restarts();
    process.kill(worker, 'SIGKILL');
    for (let attempt = 0; attempt < 600 && restarts() === listened; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const page = await readMetrics();
    assert.ok((seriesValue(page, healthzSeries) ?? 0) >= before, 'a summed counter never goes down');
    assert.deepEqual(workerLabels(page, 'gateway_process_resident_memory_bytes'), ['0', '1']);
    await assertHealthzCounted({ url, count: 12, readMetrics });
  });
});

test('PROCESSES=2 with METRICS_TOKEN: /metrics on the public port is the whole gateway, from either process', async () => {
  const seed = await startTestGateway({ databaseKind: 'postgres', environment: { REDIS_URL: testRedisUrl() } });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-processes-token-'));
  const gateway = spawnGateway({
    DATA_DIR: dataDir,
    DATABASE_URL: seed.config.database.kind === 'postgres' ? seed.config.database.url : '',
    REDIS_URL: testRedisUrl(),
    MASTER_KEY: readFileSync(path.join(seed.config.dataDir, 'master.key'), 'utf8').trim(),
    PROCESSES: '2',
    PORT: String(await findFreePort()),
    HOST: '127.0.0.1',
    SANDBOX: 'on',
    METRICS_TOKEN: 'metrics-token-for-the-test',
    LOG_LEVEL: 'info',
  });
  try {
    const url = await waitForListening(gateway);
    while ((gateway.output().match(/gateway listening on/g) ?? []).length < 2) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const readMetrics = async () => {
      const response = await fetch(`${url}/metrics`, {
        headers: { authorization: 'Bearer metrics-token-for-the-test', connection: 'close' },
      });
      assert.equal(response.status, 200);
      return response.text();
    };
    assert.equal((await fetch(`${url}/metrics`, { headers: { connection: 'close' } })).status, 401);
    await assertHealthzCounted({ url, count: 12, readMetrics });
    // Fresh connections reach both processes: each answers with every process's gauges.
    for (let index = 0; index < 4; index += 1) {
      assert.deepEqual(workerLabels(await readMetrics(), 'gateway_process_resident_memory_bytes'), ['0', '1']);
    }
  } finally {
    gateway.child.kill('SIGTERM');
    await gateway.exited;
    await seed.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('PROCESSES=2 on SQLite is refused at start with one clear line', async () => {
  const sqliteDataDir = mkdtempSync(path.join(tmpdir(), 'gateway-processes-sqlite-'));
  try {
    const refused = spawnGateway({ DATA_DIR: sqliteDataDir, PROCESSES: '2', PORT: '0' });
    assert.deepEqual(await refused.exited, { code: 2, signal: null });
    assert.match(refused.output(), /^gateway: PROCESSES=2 needs DATABASE_URL \(PostgreSQL\) and REDIS_URL: /);
  } finally {
    rmSync(sqliteDataDir, { recursive: true, force: true });
  }
});
