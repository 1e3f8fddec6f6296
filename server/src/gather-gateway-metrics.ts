import type { Worker } from 'node:cluster';
import { AggregatorRegistry, prometheusContentType } from 'prom-client';
import { isProcessMessage, toMetricSnapshots, type MetricSnapshot } from './process-messages.ts';

/** The launcher's view of `/metrics` for the whole gateway (all its processes). */
export type GatewayMetrics = {
  contentType: string;
  /** Asks every process for its metrics and returns them merged, in the Prometheus text format. */
  read: () => Promise<string>;
  /** Called when a process exits: its counts so far stay in the totals; its gauges go. */
  retire: (worker: Worker) => void;
};

/**
 * `/metrics` of `PROCESSES=N`, gathered by the launcher (decision 1780). Counters and histograms are summed over the
 * processes, so `gateway_http_requests_total` is the gateway's total whichever process served a call. Gauges are
 * readings of one process (resident memory, heap, event-loop lag, a route's breaker on that process), so each keeps
 * its process in a `worker` label (the slot 0..N-1, which a restarted process takes over: no stale series).
 * `gateway_worker_up{worker}` says which slots answered this scrape.
 *
 * A counter summed over processes must not go down when one of them restarts (Prometheus would read a reset and count
 * the whole total again), so the counts of a process that exits stay in the sum: the figures it gave at its last
 * scrape (what it counted after that is lost, as with a single process that dies). A process that does not answer
 * within `timeoutMs` counts with its last figures and shows `gateway_worker_up 0`.
 */
export function createGatewayMetrics(input: {
  workers: () => ReadonlyMap<Worker, number>;
  processes: number;
  timeoutMs: number;
}): GatewayMetrics {
  const lastCounts = new Map<Worker, MetricSnapshot[]>();
  let retiredCounts: Promise<MetricSnapshot[]> = Promise.resolve([]);
  let nextId = 0;
  const read = async () => {
    const id = (nextId += 1);
    const workers = [...input.workers()];
    const replies = await Promise.all(workers.map(([worker]) => askWorker(worker, id, input.timeoutMs)));
    const gauges: MetricSnapshot[][] = [];
    const answered = new Set<number>();
    workers.forEach(([worker, slot], index) => {
      const reply = replies[index];
      if (reply === undefined) return;
      answered.add(slot);
      lastCounts.set(
        worker,
        reply.filter((metric) => !isGauge(metric)),
      );
      gauges.push(labelGauges(reply, slot));
    });
    const counts = [await retiredCounts, ...workers.map(([worker]) => lastCounts.get(worker) ?? [])];
    const up = describeUp(answered, input.processes);
    return AggregatorRegistry.aggregate([...counts, ...gauges, [up]]).metrics();
  };
  const retire = (worker: Worker) => {
    const counts = lastCounts.get(worker) ?? [];
    lastCounts.delete(worker);
    // Merged into one list at once, so a process that keeps dying does not grow the launcher's memory.
    retiredCounts = retiredCounts.then((retired) => mergeSnapshots([retired, counts]));
  };
  return { contentType: prometheusContentType, read, retire };
}

/** One process's metrics, or undefined when it does not answer in time or its channel is closed. */
function askWorker(worker: Worker, id: number, timeoutMs: number): Promise<MetricSnapshot[] | undefined> {
  if (!worker.isConnected()) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const finish = (metrics: MetricSnapshot[] | undefined) => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      resolve(metrics);
    };
    const onMessage = (message: unknown) => {
      if (isProcessMessage(message) && message.type === 'gateway:metrics-reply' && message.id === id) {
        finish(message.metrics);
      }
    };
    const onExit = () => finish(undefined);
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    worker.on('message', onMessage);
    worker.on('exit', onExit);
    worker.send({ type: 'gateway:metrics-request', id }, (error: Error | null) => {
      if (error) finish(undefined);
    });
  });
}

function isGauge(metric: MetricSnapshot): boolean {
  return metric.type === 'gauge';
}

/** A process's gauges, each value labelled with its slot; summing them then keeps one series per process. */
function labelGauges(metrics: readonly MetricSnapshot[], slot: number): MetricSnapshot[] {
  return metrics.filter(isGauge).map((metric) => ({
    ...metric,
    aggregator: 'sum',
    values: metric.values.map((value) => ({ ...value, labels: { ...value.labels, worker: String(slot) } })),
  }));
}

function describeUp(answered: ReadonlySet<number>, processes: number): MetricSnapshot {
  return {
    name: 'gateway_worker_up',
    help: 'Whether each gateway process (PROCESSES slot) answered this scrape: 1 yes, 0 no',
    type: 'gauge',
    aggregator: 'sum',
    values: Array.from({ length: processes }, (_, slot) => ({
      value: answered.has(slot) ? 1 : 0,
      labels: { worker: String(slot) },
    })),
  };
}

async function mergeSnapshots(lists: MetricSnapshot[][]): Promise<MetricSnapshot[]> {
  return toMetricSnapshots(await AggregatorRegistry.aggregate(lists).getMetricsAsJSON());
}
