import { chatBody, chatHeaders, type BenchTarget } from './bench-target.ts';
import { readRssMb } from './measure-memory.ts';
import { runWrk } from './run-wrk.ts';

export type ThroughputResult = {
  requestsPerSecond: number;
  okCount: number;
  failedCount: number;
  /** Highest resident memory of the target's process seen during its slices, when it runs on this machine. */
  peakRssMb: number | undefined;
};

/**
 * Requests per second with `connections` keep-alive connections, measured by wrk. The targets take turns in
 * short slices (round robin, `rounds` times) so that other load on the machine falls on all of them alike.
 */
export async function measureThroughput(input: {
  targets: readonly BenchTarget[];
  connections: number;
  sliceSeconds: number;
  rounds: number;
  warmupSeconds: number;
}): Promise<Map<string, ThroughputResult>> {
  const totals = new Map(
    input.targets.map((target) => [
      target.label,
      { okCount: 0, failedCount: 0, seconds: 0, peakRssMb: undefined as number | undefined },
    ]),
  );
  for (const target of input.targets) await runSlice(target, input.connections, input.warmupSeconds);
  for (let round = 0; round < input.rounds; round += 1) {
    for (const target of input.targets) {
      const sampler = sampleRss(target.pid);
      const slice = await runSlice(target, input.connections, input.sliceSeconds).finally(sampler.stop);
      const total = totals.get(target.label);
      if (!total) continue;
      total.peakRssMb = maxDefined(total.peakRssMb, sampler.peakMb());
      total.okCount += slice.okCount;
      total.failedCount += slice.failedCount;
      total.seconds += slice.seconds;
    }
  }
  return new Map(
    [...totals].map(([label, total]) => [
      label,
      {
        requestsPerSecond: total.okCount / total.seconds,
        okCount: total.okCount,
        failedCount: total.failedCount,
        peakRssMb: total.peakRssMb,
      },
    ]),
  );
}

function runSlice(target: BenchTarget, connections: number, seconds: number) {
  return runWrk({
    url: `${target.origin}${target.path}`,
    headers: chatHeaders(target),
    body: chatBody(target, { isStreaming: false }),
    connections,
    seconds,
  });
}

/** Reads the process's RSS every 200 ms until stopped (nothing when the process is not on this machine). */
function sampleRss(pid: number | undefined) {
  let peakMb: number | undefined;
  const read = () => {
    if (pid === undefined) return;
    try {
      peakMb = maxDefined(peakMb, readRssMb(pid));
    } catch {
      // The process ended between two samples; the slice's own result says so.
    }
  };
  read();
  const timer = setInterval(read, 200);
  return {
    stop: () => {
      clearInterval(timer);
      read();
    },
    peakMb: () => peakMb,
  };
}

function maxDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.max(a, b);
}
