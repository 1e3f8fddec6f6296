import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { percentile } from './load/percentile.ts';
import { startPostgresAndRedis } from './start-postgres-and-redis.ts';
import { benchMetricsToken, startBenchGateway } from './start-bench-gateway.ts';
import { startNodeProcess } from './start-process.ts';

/**
 * Where the tail of one caller's latency comes from: 10 s of non-streamed calls in a closed loop against the gateway
 * (SQLite, or PostgreSQL + Redis with `--postgres`) or the raw floor, then the latency percentiles, how many calls were more than 1.5 ms slower than the
 * median and how far apart they came, the CPU each thread of the system used (from /proc), and the gateway's garbage
 * collections and event-loop delay (from /metrics). Not part of `npm run bench`; docs/benchmarks.md.
 *
 *   npm exec -- node bench/probe-call-tail.ts [--floor] [--postgres] [--pin] [-- <gateway node flags>]
 *
 * `--pin` puts the system under test alone on CPU 1 (all its threads) and leaves CPU 0 to the rest.
 */
const { values, positionals } = parseArgs({
  options: {
    floor: { type: 'boolean', default: false },
    postgres: { type: 'boolean', default: false },
    pin: { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
const probeMs = 10_000;
const warmupMs = 3_000;
const slowMarginMs = 1.5;

const mock = await startNodeProcess({ args: [path.join(import.meta.dirname, 'processes/mock-upstream.ts'), '0'] });
const floor = await startNodeProcess({
  args: [path.join(import.meta.dirname, 'processes/floor-proxy.ts'), mock.url, 'mock-model'],
});
const services = values.postgres
  ? await startPostgresAndRedis({
      postgresUrl: process.env['BENCH_POSTGRES_URL'],
      redisUrl: process.env['BENCH_REDIS_URL'],
    })
  : undefined;
if (services && !services.isAvailable) throw new Error(`PostgreSQL + Redis: ${services.reason}`);
const database = services?.isAvailable
  ? { databaseUrl: await services.newDatabase(), redisUrl: services.redisUrl }
  : undefined;
const gateway = await startBenchGateway({
  upstreamUrl: mock.url,
  nodeArgs: positionals,
  ...(database ? { database } : {}),
});
const subject = values.floor ? floor : gateway;
if (values.pin) {
  execFileSync('taskset', ['-a', '-pc', '1', String(subject.pid)]);
  execFileSync('taskset', ['-pc', '0', String(process.pid)]);
}
try {
  const pool = new Pool(subject.url, { connections: 1 });
  const body = JSON.stringify({ model: gateway.model, messages: [{ role: 'user', content: 'hi' }] });
  const headers = { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' };
  const call = async () => {
    const answer = await pool.request({ method: 'POST', path: '/v1/chat/completions', headers, body });
    if (answer.statusCode !== 200) throw new Error(`status ${answer.statusCode}: ${await answer.body.text()}`);
    await answer.body.text();
  };
  const warmupEnd = performance.now() + warmupMs;
  while (performance.now() < warmupEnd) await call();
  const samples: { atMs: number; latencyMs: number }[] = [];
  const start = performance.now();
  while (performance.now() - start < probeMs) {
    const sentAt = performance.now();
    await call();
    samples.push({ atMs: sentAt - start, latencyMs: performance.now() - sentAt });
  }
  await pool.close();
  report(samples);
  reportThreads(subject.pid);
  if (!values.floor) await reportGatewayMetrics(gateway.url);
} finally {
  await gateway.close();
  await floor.stop();
  await mock.stop();
  if (services?.isAvailable) await services.stop();
}

function report(samples: readonly { atMs: number; latencyMs: number }[]): void {
  const sorted = samples.map((sample) => sample.latencyMs);
  const at = (p: number) => percentile(sorted, p).toFixed(3);
  console.log(
    `${values.floor ? 'raw floor' : values.postgres ? 'gateway (PostgreSQL + Redis)' : 'gateway (SQLite)'}: ${sorted.length} calls in ${probeMs / 1000} s`,
  );
  console.log(`latency ms: p50 ${at(50)}  p90 ${at(90)}  p99 ${at(99)}  p99.9 ${at(99.9)}`);
  const slowFromMs = percentile(sorted, 50) + slowMarginMs;
  const slow = samples.filter((sample) => sample.latencyMs > slowFromMs);
  const gaps = slow.slice(1).map((sample, index) => (sample.atMs - (slow[index]?.atMs ?? 0)).toFixed(0));
  console.log(`calls over p50 + ${slowMarginMs} ms: ${slow.length}; ms between them: ${gaps.slice(0, 40).join(' ')}`);
}

function reportThreads(pid: number): void {
  const ticksPerSecond = 100;
  for (const threadId of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${threadId}/stat`, 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuSeconds = (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
    if (cpuSeconds >= 0.05) console.log(`thread ${name}: ${cpuSeconds.toFixed(2)} s of CPU since start`);
  }
}

async function reportGatewayMetrics(url: string): Promise<void> {
  const headers = { authorization: `Bearer ${benchMetricsToken}` };
  const metrics = await (await fetch(`${url}/metrics`, { headers })).text();
  const wanted = /^gateway_nodejs_(gc_duration_seconds_(sum|count)|eventloop_lag_(p50|p99|max)_seconds)/;
  for (const line of metrics.split('\n')) if (wanted.test(line)) console.log(line);
}
