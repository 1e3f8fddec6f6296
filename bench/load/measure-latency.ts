import { Pool } from 'undici';
import { chatBody, chatHeaders, type BenchTarget } from './bench-target.ts';
import { percentile } from './percentile.ts';

export type LatencyResult = { p50Ms: number; p99Ms: number; count: number; failedCount: number };

/**
 * Latency of non-streamed calls with `concurrency` callers in a closed loop (each sends its next call when the
 * previous answer is read in full), timed with the high-resolution clock. Targets take turns in slices.
 */
export async function measureLatency(input: {
  targets: readonly BenchTarget[];
  concurrency: number;
  sliceMs: number;
  rounds: number;
  warmupMs: number;
}): Promise<Map<string, LatencyResult>> {
  const pools = new Map(
    input.targets.map((target) => [
      target.label,
      new Pool(target.origin, { connections: input.concurrency, keepAliveTimeout: 60_000 }),
    ]),
  );
  const samples = new Map(
    input.targets.map((target) => [target.label, { latenciesMs: [] as number[], failedCount: 0 }]),
  );
  try {
    for (const target of input.targets) {
      await runSlice({
        target,
        pool: pools.get(target.label),
        concurrency: input.concurrency,
        durationMs: input.warmupMs,
      });
    }
    for (let round = 0; round < input.rounds; round += 1) {
      for (const target of input.targets) {
        const slice = await runSlice({
          target,
          pool: pools.get(target.label),
          concurrency: input.concurrency,
          durationMs: input.sliceMs,
        });
        const sample = samples.get(target.label);
        sample?.latenciesMs.push(...slice.latenciesMs);
        if (sample) sample.failedCount += slice.failedCount;
      }
    }
  } finally {
    await Promise.all([...pools.values()].map((pool) => pool.close()));
  }
  return new Map(
    [...samples].map(([label, sample]) => [
      label,
      {
        p50Ms: percentile(sample.latenciesMs, 50),
        p99Ms: percentile(sample.latenciesMs, 99),
        count: sample.latenciesMs.length,
        failedCount: sample.failedCount,
      },
    ]),
  );
}

async function runSlice(input: {
  target: BenchTarget;
  pool: Pool | undefined;
  concurrency: number;
  durationMs: number;
}): Promise<{ latenciesMs: number[]; failedCount: number }> {
  const { pool, target } = input;
  if (!pool) throw new Error(`no connection pool for ${target.label}`);
  const latenciesMs: number[] = [];
  let failedCount = 0;
  const headers = chatHeaders(target);
  const body = chatBody(target, { isStreaming: false });
  const endMs = performance.now() + input.durationMs;
  const caller = async () => {
    while (performance.now() < endMs) {
      const startedMs = performance.now();
      try {
        const response = await pool.request({ path: target.path, method: 'POST', headers, body });
        await response.body.text();
        if (response.statusCode === 200) latenciesMs.push(performance.now() - startedMs);
        else failedCount += 1;
      } catch {
        failedCount += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: input.concurrency }, caller));
  return { latenciesMs, failedCount };
}
