import { Pool } from 'undici';
import { setMockMode } from '../mock-mode.ts';
import { chatBody, chatHeaders, type BenchTarget } from './bench-target.ts';
import { benchMetricsToken } from '../start-bench-gateway.ts';
import { readProcessRss, trackRssPeaks, type RssPeaks } from './sample-process-rss.ts';

export type MemoryResult = RssPeaks & {
  chunkCount: number;
  /** Before the streams, the same figure as `peakRssMb`: the process, or the largest of its gateway processes. */
  idleRssMb: number;
  /** V8 heap in use halfway through, from the gateway's `/metrics` (undefined when it has none). */
  midwayHeapUsedMb: number | undefined;
  completedCount: number;
  failedCount: number;
  durationSeconds: number;
};

/**
 * Resident memory of the target's process while `streamCount` streams of `chunkCount` chunks, each spread over
 * `streamSeconds`, are open at once. RSS is read from /proc every 200 ms; the peak of each process is reported.
 */
export async function measureMemory(input: {
  target: BenchTarget;
  mockUrl: string;
  streamCount: number;
  streamSeconds: number;
  chunkCount: number;
}): Promise<MemoryResult> {
  const pid = input.target.pid;
  if (pid === undefined) throw new Error(`no process id for ${input.target.label}`);
  await setMockMode(input.mockUrl, {
    delayMs: 0,
    chunkCount: input.chunkCount,
    chunkIntervalMs: (input.streamSeconds * 1000) / input.chunkCount,
  });
  const tracker = trackRssPeaks();
  tracker.add(readProcessRss(pid));
  const idle = tracker.peaks();
  const sampler = setInterval(() => tracker.add(readProcessRss(pid)), 200);
  const pool = new Pool(input.target.origin, { connections: input.streamCount, keepAliveTimeout: 1_000 });
  const startedMs = performance.now();
  const midwayHeap = new Promise<number | undefined>((resolve) => {
    setTimeout(
      () => readHeapUsedMb(input.target.origin).then(resolve, () => resolve(undefined)),
      (input.streamSeconds * 1000) / 2,
    );
  });
  let completedCount = 0;
  let failedCount = 0;
  try {
    await Promise.all(
      Array.from({ length: input.streamCount }, async () => {
        try {
          const eventCount = await countStreamEvents(pool, input.target);
          if (eventCount >= input.chunkCount) completedCount += 1;
          else failedCount += 1;
        } catch {
          failedCount += 1;
        }
      }),
    );
  } finally {
    clearInterval(sampler);
    tracker.add(readProcessRss(pid));
    await pool.close();
  }
  const peaks = tracker.peaks();
  if (idle === undefined || peaks === undefined) throw new Error(`no memory figure for ${input.target.label}`);
  return {
    chunkCount: input.chunkCount,
    idleRssMb: idle.peakRssMb,
    ...peaks,
    midwayHeapUsedMb: await midwayHeap,
    completedCount,
    failedCount,
    durationSeconds: (performance.now() - startedMs) / 1000,
  };
}

const eventEnd = Buffer.from('\n\n');
const doneEvent = 'data: [DONE]\n\n';

/**
 * Reads one streamed call as cheaply as possible (the load generator shares the machine): counts event ends in the
 * raw bytes and checks the `[DONE]` terminator. Returns 0 for a failed or unterminated stream.
 */
async function countStreamEvents(pool: Pool, target: BenchTarget): Promise<number> {
  const response = await pool.request({
    path: target.path,
    method: 'POST',
    headers: chatHeaders(target),
    body: chatBody(target, { isStreaming: true }),
  });
  if (response.statusCode !== 200) {
    await response.body.dump();
    return 0;
  }
  let eventCount = 0;
  let tail = '';
  for await (const bytes of response.body as AsyncIterable<Buffer>) {
    for (let index = bytes.indexOf(eventEnd); index !== -1; index = bytes.indexOf(eventEnd, index + 2)) eventCount += 1;
    tail = (tail + bytes.toString('latin1')).slice(-doneEvent.length);
  }
  return tail === doneEvent ? eventCount - 1 : 0;
}

/**
 * `gateway_nodejs_heap_size_used_bytes` from the prom-client default metrics, in MB; under `--processes N` the
 * largest of the processes' (each has its own series, labelled `worker`).
 */
async function readHeapUsedMb(origin: string): Promise<number | undefined> {
  const response = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${benchMetricsToken}` } });
  const text = await response.text();
  const figures = [...text.matchAll(/^\w*nodejs_heap_size_used_bytes(?:\{[^}]*\})?\s+(\d+(?:\.\d+)?)/gm)];
  if (figures.length === 0) return undefined;
  return Math.max(...figures.map((match) => Number(match[1]))) / 1024 / 1024;
}
