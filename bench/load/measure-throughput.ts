import { chatBody, chatHeaders, type BenchTarget } from './bench-target.ts';
import { runWrk } from './run-wrk.ts';
import { readProcessRss, trackRssPeaks, type RssPeaks } from './sample-process-rss.ts';

export type ThroughputResult = {
  requestsPerSecond: number;
  okCount: number;
  failedCount: number;
  /** Highest resident memory of each of the target's processes during its slices, when it runs on this machine. */
  rss: RssPeaks | undefined;
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
    input.targets.map((target) => [target.label, { okCount: 0, failedCount: 0, seconds: 0, rss: trackRssPeaks() }]),
  );
  for (const target of input.targets) await runSlice(target, input.connections, input.warmupSeconds);
  for (let round = 0; round < input.rounds; round += 1) {
    for (const target of input.targets) {
      const total = totals.get(target.label);
      if (!total) continue;
      const sampler = sampleRss(target.pid, total.rss);
      const slice = await runSlice(target, input.connections, input.sliceSeconds).finally(sampler.stop);
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
        rss: total.rss.peaks(),
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

/** Reads the RSS of the process and its children every 200 ms until stopped (nothing when not on this machine). */
function sampleRss(pid: number | undefined, tracker: ReturnType<typeof trackRssPeaks>) {
  const read = () => {
    if (pid === undefined) return;
    try {
      tracker.add(readProcessRss(pid));
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
  };
}
