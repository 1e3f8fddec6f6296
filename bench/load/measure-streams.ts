import { Pool } from 'undici';
import { chatBody, chatHeaders, type BenchTarget } from './bench-target.ts';
import { percentile } from './percentile.ts';

export type StreamResult = {
  timeToFirstTokenP50Ms: number;
  timeToFirstTokenP99Ms: number;
  /** Per stream, the longest wait between two events; then the 99th percentile and the maximum over streams. */
  largestGapP99Ms: number;
  largestGapMaxMs: number;
  /** Last content chunk to `[DONE]`, 99th percentile. */
  endP99Ms: number;
  streamCount: number;
  eventsPerStream: number;
  failedCount: number;
};

type StreamSample = {
  timeToFirstTokenMs: number;
  /** The longest wait between two content chunks. */
  largestGapMs: number;
  /** From the last content chunk to `[DONE]`: where a gateway settles the charge and sends the usage chunk. */
  endMs: number;
  eventCount: number;
};

/**
 * Streamed calls with `concurrency` callers in a closed loop. Each server-sent event is timestamped when its bytes
 * arrive, so events that a proxy held back and sent together show up as one long gap followed by a zero one.
 */
export async function measureStreams(input: {
  targets: readonly BenchTarget[];
  concurrency: number;
  sliceMs: number;
  rounds: number;
  warmupMs: number;
}): Promise<Map<string, StreamResult>> {
  const pools = new Map(
    input.targets.map((target) => [target.label, new Pool(target.origin, { connections: input.concurrency })]),
  );
  const samples = new Map(
    input.targets.map((target) => [target.label, { streams: [] as StreamSample[], failedCount: 0 }]),
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
        sample?.streams.push(...slice.streams);
        if (sample) sample.failedCount += slice.failedCount;
      }
    }
  } finally {
    await Promise.all([...pools.values()].map((pool) => pool.close()));
  }
  return new Map([...samples].map(([label, sample]) => [label, summarize(sample.streams, sample.failedCount)]));
}

function summarize(streams: readonly StreamSample[], failedCount: number): StreamResult {
  const gaps = streams.map((stream) => stream.largestGapMs);
  return {
    timeToFirstTokenP50Ms: percentile(
      streams.map((stream) => stream.timeToFirstTokenMs),
      50,
    ),
    timeToFirstTokenP99Ms: percentile(
      streams.map((stream) => stream.timeToFirstTokenMs),
      99,
    ),
    largestGapP99Ms: percentile(gaps, 99),
    largestGapMaxMs: gaps.length === 0 ? Number.NaN : Math.max(...gaps),
    endP99Ms: percentile(
      streams.map((stream) => stream.endMs),
      99,
    ),
    streamCount: streams.length,
    eventsPerStream: percentile(
      streams.map((stream) => stream.eventCount),
      50,
    ),
    failedCount,
  };
}

async function runSlice(input: {
  target: BenchTarget;
  pool: Pool | undefined;
  concurrency: number;
  durationMs: number;
}): Promise<{ streams: StreamSample[]; failedCount: number }> {
  const { pool, target } = input;
  if (!pool) throw new Error(`no connection pool for ${target.label}`);
  const streams: StreamSample[] = [];
  let failedCount = 0;
  const endMs = performance.now() + input.durationMs;
  const caller = async () => {
    while (performance.now() < endMs) {
      try {
        const sample = await readOneStream(pool, target);
        if (sample) streams.push(sample);
        else failedCount += 1;
      } catch {
        failedCount += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: input.concurrency }, caller));
  return { streams, failedCount };
}

/** One streamed call; undefined when it failed or did not end with `[DONE]`. */
export async function readOneStream(pool: Pool, target: BenchTarget): Promise<StreamSample | undefined> {
  const startedMs = performance.now();
  const response = await pool.request({
    path: target.path,
    method: 'POST',
    headers: chatHeaders(target),
    body: chatBody(target, { isStreaming: true }),
  });
  if (response.statusCode !== 200) {
    await response.body.dump();
    return undefined;
  }
  const decoder = new TextDecoder();
  let buffer = '';
  let firstEventMs: number | undefined;
  let previousEventMs = 0;
  let largestGapMs = 0;
  let eventCount = 0;
  let doneMs: number | undefined;
  for await (const bytes of response.body) {
    const arrivedMs = performance.now();
    buffer += decoder.decode(bytes, { stream: true });
    let boundary = buffer.indexOf('\n\n');
    while (boundary !== -1) {
      const event = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      boundary = buffer.indexOf('\n\n');
      if (!event.startsWith('data:')) continue;
      if (event.startsWith('data: [DONE]')) {
        doneMs = arrivedMs;
        continue;
      }
      // The usage chunk (no choices) comes after settlement, by design: it is timed as the end, not as a gap.
      if (event.includes('"choices":[]')) continue;
      eventCount += 1;
      if (firstEventMs === undefined) firstEventMs = arrivedMs;
      else largestGapMs = Math.max(largestGapMs, arrivedMs - previousEventMs);
      previousEventMs = arrivedMs;
    }
  }
  if (doneMs === undefined || firstEventMs === undefined) return undefined;
  return { timeToFirstTokenMs: firstEventMs - startedMs, largestGapMs, endMs: doneMs - previousEventMs, eventCount };
}
