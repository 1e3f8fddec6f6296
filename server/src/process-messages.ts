import type { Registry } from 'prom-client';

/**
 * What the launcher of `PROCESSES=N` and its gateway processes say to each other over node:cluster's IPC channel.
 * Typed here once, so each side checks what it receives against the same shapes.
 */

/** One metric as prom-client's `registry.getMetricsAsJSON()` gives it, after the JSON trip over IPC. */
export type MetricSnapshot = {
  name: string;
  help: string;
  type: string;
  aggregator: string;
  values: { value: number; labels: Record<string, string | number>; metricName?: string }[];
};

/** A registry's metrics as plain data for the IPC channel (prom-client's own objects also carry functions). */
export function toMetricSnapshots(metrics: Awaited<ReturnType<Registry['getMetricsAsJSON']>>): MetricSnapshot[] {
  return metrics.map((metric) => ({
    name: metric.name,
    help: metric.help,
    type: String(metric.type),
    aggregator: String(metric.aggregator),
    values: metric.values.map((value) => {
      const { metricName } = value as { metricName?: string };
      const labels = value.labels as Record<string, string | number>;
      return metricName === undefined ? { value: value.value, labels } : { value: value.value, labels, metricName };
    }),
  }));
}

export type ProcessMessage =
  /** Launcher → process: send your metrics for scrape `id`. */
  | { type: 'gateway:metrics-request'; id: number }
  /** Process → launcher: this process's metrics for scrape `id`. */
  | { type: 'gateway:metrics-reply'; id: number; metrics: MetricSnapshot[] }
  /** Process → launcher: the whole gateway's metrics, please (for `/metrics` on the public port). */
  | { type: 'gateway:metrics-ask'; id: number }
  /** Launcher → process: the whole gateway's metrics in the exposition format, or why there are none. */
  | { type: 'gateway:metrics-answer'; id: number; text: string | undefined }
  /** Process → launcher: started, listening on the port. */
  | { type: 'gateway:serving' }
  /** Launcher → every process, whenever it changes: the slots that are serving, of `processes` configured. */
  | { type: 'gateway:processes'; up: number[]; processes: number };

const messageTypes: ReadonlySet<string> = new Set<ProcessMessage['type']>([
  'gateway:metrics-request',
  'gateway:metrics-reply',
  'gateway:metrics-ask',
  'gateway:metrics-answer',
  'gateway:processes',
  'gateway:serving',
]);

/**
 * Whether an IPC message is one of ours. Only our own processes write on this channel, so the type tag is checked
 * and the rest trusted; other senders on the channel (prom-client, node:cluster internals) are ignored.
 */
export function isProcessMessage(message: unknown): message is ProcessMessage {
  if (typeof message !== 'object' || message === null) return false;
  const type = (message as { type?: unknown }).type;
  return typeof type === 'string' && messageTypes.has(type);
}
