import type { BenchOptions } from './bench-options.ts';
import { measureLatency, type LatencyResult } from './load/measure-latency.ts';
import { measureMemory, type MemoryResult } from './load/measure-memory.ts';
import { measureStreams, type StreamResult } from './load/measure-streams.ts';
import { measureThroughput, type ThroughputResult } from './load/measure-throughput.ts';
import { setMockMode } from './mock-mode.ts';
import type { BenchResults } from './report.ts';
import type { BenchSystems } from './start-systems.ts';

export const concurrency = 64;
export const streamConcurrency = 64;
/** Short streams at c=1, so that a slice holds enough of them for a time-to-first-token percentile. */
const singleStreamChunks = 4;

/** Measures the figures the options ask for, one phase after another; the mock is switched before each. */
export async function runPhases(
  options: BenchOptions,
  systems: BenchSystems,
  log: (line: string) => void,
): Promise<BenchResults> {
  const { durations, phases } = options;
  const all = [systems.upstream, systems.floor, ...systems.gateways];
  const slices = { rounds: durations.rounds, warmupMs: durations.warmupMs };
  const setMode = (delayMs: number) => setMockMode(systems.mockUrl, { delayMs, chunkCount: 64, chunkIntervalMs: 20 });
  let throughput = new Map<string, ThroughputResult>();
  let latencySingle = new Map<string, LatencyResult>();
  let latencyConcurrent = new Map<string, LatencyResult>();
  let streamsSingle = new Map<string, StreamResult>();
  let streamsConcurrent = new Map<string, StreamResult>();
  // Memory first, on fresh processes: the figure then belongs to the streams, not to the load phases before them.
  const memory = phases.has('memory') ? await measureGatewayMemory(options, systems, log) : new Map();
  if (phases.has('throughput')) {
    log(`requests per second at c=${concurrency}, zero-delay upstream`);
    await setMode(0);
    throughput = await measureThroughput({
      targets: all,
      connections: concurrency,
      sliceSeconds: durations.throughputSliceSeconds,
      rounds: durations.rounds,
      warmupSeconds: Math.max(1, Math.round(durations.warmupMs / 1000)),
    });
  }
  if (phases.has('latency')) {
    log('latency at c=1, zero-delay upstream');
    await setMode(0);
    latencySingle = await measureLatency({
      targets: all,
      concurrency: 1,
      sliceMs: durations.latencySliceMs,
      ...slices,
    });
    log(`latency at c=${concurrency}, 20 ms upstream`);
    await setMode(20);
    latencyConcurrent = await measureLatency({
      targets: all,
      concurrency,
      sliceMs: durations.latencySliceMs,
      ...slices,
    });
  }
  if (phases.has('streams')) {
    log(`streams at c=1: ${singleStreamChunks} chunks every 20 ms`);
    await setMockMode(systems.mockUrl, { delayMs: 0, chunkCount: singleStreamChunks, chunkIntervalMs: 20 });
    streamsSingle = await measureStreams({ targets: all, concurrency: 1, sliceMs: durations.streamSliceMs, ...slices });
    log(`streams at c=${streamConcurrency}: 64 chunks every 20 ms`);
    await setMode(0);
    streamsConcurrent = await measureStreams({
      targets: all,
      concurrency: streamConcurrency,
      sliceMs: durations.streamSliceMs,
      ...slices,
    });
  }
  return {
    upstreamLabel: systems.upstream.label,
    floorLabel: systems.floor.label,
    gatewayLabels: systems.gateways.map((target) => target.label),
    throughput,
    latencySingle,
    latencyConcurrent,
    streamsSingle,
    streamsConcurrent,
    memory,
    notRun: systems.notRun,
    concurrency,
    streamConcurrency,
    memoryStreamCount: durations.memoryStreamCount,
    memoryStreamSeconds: durations.memoryStreamSeconds,
  };
}

/**
 * Resident memory with many concurrent streams, short answers then ten times longer ones, each on a fresh process
 * (so that one figure does not start from what the other left): our gateway on SQLite in both memory modes and on
 * PostgreSQL + Redis, and another gateway's running process when one is measured.
 */
async function measureGatewayMemory(
  options: BenchOptions,
  systems: BenchSystems,
  log: (line: string) => void,
): Promise<Map<string, MemoryResult[]>> {
  const { durations } = options;
  const memory = new Map<string, MemoryResult[]>();
  for (const subject of systems.memorySubjects) {
    const runs: MemoryResult[] = [];
    for (const chunkCount of [64, 640]) {
      log(
        `resident memory of ${subject.label}: ${durations.memoryStreamCount} streams of ${chunkCount} chunks over ${durations.memoryStreamSeconds} s`,
      );
      const { target, stop } = await subject.start();
      try {
        const result = await measureMemory({
          target,
          mockUrl: systems.mockUrl,
          streamCount: durations.memoryStreamCount,
          streamSeconds: durations.memoryStreamSeconds,
          chunkCount,
        });
        // Printed as it is measured too, so a run the watchdog stops on a busy machine still leaves its figures.
        log(
          `  peak ${Math.round(result.peakRssMb)} MB (idle ${Math.round(result.idleRssMb)} MB), ${result.completedCount} streams done`,
        );
        runs.push(result);
      } finally {
        await stop();
      }
    }
    memory.set(subject.label, runs);
  }
  return memory;
}
