import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { startBenchGateway } from './start-bench-gateway.ts';
import { startPostgresAndRedis } from './start-postgres-and-redis.ts';
import { startNodeProcess } from './start-process.ts';

/**
 * The gateway's CPU time per call (every thread, from /proc), over a fixed number of non-streamed calls at
 * concurrency 16 against the mock upstream: on a machine other work shares, requests per second swing with the
 * load, while CPU per call moves far less, so back-to-back runs of two commits compare them. Not part of
 * `npm run bench`; docs/benchmarks.md.
 *
 *   npm exec -- node bench/probe-cpu-per-call.ts [--postgres] [--calls N]
 *
 * `--postgres` measures the PostgreSQL + Redis gateway (BENCH_POSTGRES_URL and BENCH_REDIS_URL, or servers it starts).
 */
const { values } = parseArgs({
  options: { postgres: { type: 'boolean', default: false }, calls: { type: 'string', default: '6000' } },
});
const calls = Number(values.calls);
const concurrency = 16;
const warmupCalls = 1_500;

const mock = await startNodeProcess({ args: [path.join(import.meta.dirname, 'processes/mock-upstream.ts'), '0'] });
const cleanups: (() => Promise<void>)[] = [mock.stop];
try {
  let database: { databaseUrl: string; redisUrl: string } | undefined;
  if (values.postgres) {
    const services = await startPostgresAndRedis({
      postgresUrl: process.env['BENCH_POSTGRES_URL'],
      redisUrl: process.env['BENCH_REDIS_URL'],
    });
    if (!services.isAvailable) throw new Error(`PostgreSQL + Redis: ${services.reason}`);
    cleanups.push(services.stop);
    database = { databaseUrl: await services.newDatabase(), redisUrl: services.redisUrl };
  }
  const gateway = await startBenchGateway({ upstreamUrl: mock.url, nodeArgs: [], ...(database ? { database } : {}) });
  cleanups.push(gateway.close);
  const pool = new Pool(gateway.url, { connections: concurrency });
  const body = JSON.stringify({ model: gateway.model, messages: [{ role: 'user', content: 'hi' }] });
  const headers = { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' };
  const run = async (count: number) => {
    let left = count;
    const caller = async () => {
      for (; left > 0; left -= 1) {
        const answer = await pool.request({ method: 'POST', path: '/v1/chat/completions', headers, body });
        if (answer.statusCode !== 200) throw new Error(`status ${answer.statusCode}: ${await answer.body.text()}`);
        await answer.body.text();
      }
    };
    await Promise.all(Array.from({ length: concurrency }, caller));
  };
  await run(warmupCalls);
  const cpuBefore = processCpuMs(gateway.pid);
  const startedAt = performance.now();
  await run(calls);
  const elapsedMs = performance.now() - startedAt;
  const cpuMs = processCpuMs(gateway.pid) - cpuBefore;
  await pool.close();
  const label = values.postgres ? 'gateway (PostgreSQL + Redis)' : 'gateway (SQLite)';
  console.log(
    `${label}: ${Math.round((cpuMs / calls) * 1000)} µs of CPU per call over ${calls} calls at c=${concurrency} ` +
      `(${Math.round(calls / (elapsedMs / 1000))} calls/s; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`,
  );
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup();
}

/** User plus system CPU time of every thread of a process, in milliseconds (clock ticks of 10 ms). */
function processCpuMs(pid: number): number {
  let ticks = 0;
  for (const threadId of readdirSync(`/proc/${pid}/task`)) {
    const fields = readFileSync(`/proc/${pid}/task/${threadId}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}
