import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { sampleAllocations } from './sample-allocations.ts';
import { findFreePort, startBenchGateway } from './start-bench-gateway.ts';
import { startPostgresAndRedis } from './start-postgres-and-redis.ts';
import { startNodeProcess } from './start-process.ts';

/**
 * The gateway's CPU time per call (every thread, from /proc), over a fixed number of non-streamed calls at
 * concurrency 16 against the mock upstream: on a machine other work shares, requests per second swing with the
 * load, while CPU per call moves far less, so back-to-back runs of two commits compare them. Not part of
 * `npm run bench`; docs/benchmarks.md.
 *
 *   npm exec -- node bench/probe-cpu-per-call.ts [--postgres] [--calls N] [--allocations] [--cpu-prof-dir DIR]
 *
 * `--postgres` measures the PostgreSQL + Redis gateway (BENCH_POSTGRES_URL and BENCH_REDIS_URL, or servers it starts).
 * `--allocations` measures the bytes the gateway's main thread allocates per call instead (V8's sampling heap
 * profiler, through the inspector; `sample-allocations.ts`), and the functions that allocate most.
 * `--cpu-prof-dir` has the gateway write a V8 CPU profile of each of its threads there (the SQLite writer thread's
 * too), for `summarize-profile.ts`; the profiler's own cost is in the figures then.
 */
const { values } = parseArgs({
  options: {
    postgres: { type: 'boolean', default: false },
    calls: { type: 'string', default: '6000' },
    allocations: { type: 'boolean', default: false },
    'cpu-prof-dir': { type: 'string' },
  },
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
  const inspectPort = values.allocations ? await findFreePort() : undefined;
  const nodeArgs = inspectPort === undefined ? [] : [`--inspect=127.0.0.1:${inspectPort}`];
  const gateway = await startBenchGateway({
    upstreamUrl: mock.url,
    nodeArgs,
    ...(database ? { database } : {}),
    ...(values['cpu-prof-dir'] === undefined ? {} : { cpuProfileDir: values['cpu-prof-dir'] }),
  });
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
  const label = values.postgres ? 'gateway (PostgreSQL + Redis)' : 'gateway (SQLite)';
  const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  if (inspectPort !== undefined) {
    const sample = await sampleAllocations(inspectPort, () => run(calls));
    const perCall = (bytes: number) => `${(bytes / calls / 1024).toFixed(2)} KB`;
    console.log(`${label}: ${perCall(sample.totalBytes)} allocated per call over ${calls} calls at c=${concurrency}`);
    for (const { site, bytes } of sample.sites.slice(0, 30)) console.log(`  ${perCall(bytes).padStart(9)}  ${site}`);
    console.log('including what they call:');
    for (const { site, bytes } of sample.inclusiveServerSites.slice(0, 40)) {
      console.log(`  ${perCall(bytes).padStart(9)}  ${site}`);
    }
  } else {
    const cpuBefore = processCpuMs(gateway.pid);
    const startedAt = performance.now();
    await run(calls);
    const elapsedMs = performance.now() - startedAt;
    const cpuMs = processCpuMs(gateway.pid);
    const perCall = (ms: number) => `${Math.round((ms / calls) * 1000)} µs`;
    console.log(
      `${label}: ${perCall(cpuMs.total - cpuBefore.total)} of CPU per call (main thread ` +
        `${perCall(cpuMs.main - cpuBefore.main)}, V8 helpers ${perCall(cpuMs.v8 - cpuBefore.v8)}, worker threads ` +
        `${perCall(cpuMs.workers - cpuBefore.workers)}) over ${calls} calls at c=${concurrency} ` +
        `(${Math.round(calls / (elapsedMs / 1000))} calls/s; load average ${loadAverage()})`,
    );
  }
  await pool.close();
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup();
}

/**
 * User plus system CPU time of a process's threads, in milliseconds (clock ticks of 10 ms): all of them, the main
 * thread (the event loop), V8's helpers (garbage collection, compilation) and Node worker threads (the SQLite writer).
 */
function processCpuMs(pid: number): { total: number; main: number; v8: number; workers: number } {
  const ticks = { total: 0, main: 0, v8: 0, workers: 0 };
  for (const threadId of readdirSync(`/proc/${pid}/task`)) {
    const fields = readFileSync(`/proc/${pid}/task/${threadId}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const threadTicks = Number(fields[11]) + Number(fields[12]);
    const name = readFileSync(`/proc/${pid}/task/${threadId}/comm`, 'utf8').trim();
    ticks.total += threadTicks;
    if (threadId === String(pid)) ticks.main += threadTicks;
    else if (name.startsWith('V8')) ticks.v8 += threadTicks;
    else if (name === 'WorkerThread') ticks.workers += threadTicks;
  }
  return { total: ticks.total * 10, main: ticks.main * 10, v8: ticks.v8 * 10, workers: ticks.workers * 10 };
}
