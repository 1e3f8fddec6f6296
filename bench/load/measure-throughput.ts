import autocannon from 'autocannon';
import { chatBody, chatHeaders, type BenchTarget } from './bench-target.ts';

export type ThroughputResult = { requestsPerSecond: number; okCount: number; failedCount: number };

/**
 * Requests per second with `connections` keep-alive connections, measured by autocannon. The targets take turns in
 * short slices (round robin, `rounds` times) so that other load on the machine falls on all of them alike.
 */
export async function measureThroughput(input: {
  targets: readonly BenchTarget[];
  connections: number;
  sliceSeconds: number;
  rounds: number;
  warmupSeconds: number;
}): Promise<Map<string, ThroughputResult>> {
  const totals = new Map(input.targets.map((target) => [target.label, { okCount: 0, failedCount: 0, seconds: 0 }]));
  for (const target of input.targets) await runSlice(target, input.connections, input.warmupSeconds);
  for (let round = 0; round < input.rounds; round += 1) {
    for (const target of input.targets) {
      const slice = await runSlice(target, input.connections, input.sliceSeconds);
      const total = totals.get(target.label);
      if (!total) continue;
      total.okCount += slice.okCount;
      total.failedCount += slice.failedCount;
      total.seconds += slice.seconds;
    }
  }
  return new Map(
    [...totals].map(([label, total]) => [
      label,
      { requestsPerSecond: total.okCount / total.seconds, okCount: total.okCount, failedCount: total.failedCount },
    ]),
  );
}

async function runSlice(target: BenchTarget, connections: number, seconds: number) {
  const startedMs = performance.now();
  const result = await autocannon({
    url: `${target.origin}${target.path}`,
    method: 'POST',
    headers: chatHeaders(target),
    body: chatBody(target, { isStreaming: false }),
    connections,
    duration: seconds,
  });
  return {
    okCount: result['2xx'],
    failedCount: result.non2xx + result.errors + result.timeouts,
    seconds: (performance.now() - startedMs) / 1000,
  };
}
