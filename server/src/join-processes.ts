import type { Registry } from 'prom-client';
import { isProcessMessage, toMetricSnapshots, type ProcessMessage } from './process-messages.ts';

/** A gateway process's view of the other processes of `PROCESSES=N`, through the launcher. */
export type ProcessPeers = {
  /** This process's slot, 0..N-1. */
  slot: number;
  /** The slots serving now, as the launcher last said, of `processes` configured. */
  readProcesses: () => { up: readonly number[]; processes: number };
  /** The whole gateway's `/metrics` (text format), gathered by the launcher; undefined when it does not answer. */
  readGatewayMetrics: () => Promise<string | undefined>;
};

/**
 * Joins this forked gateway to its launcher (server/src/start-processes.ts): answers the launcher's metrics requests
 * with this process's registry, keeps the launcher's list of serving processes, and asks the launcher for the
 * gateway's merged metrics when `/metrics` is called on the public port.
 */
export function joinProcesses(input: {
  registry: Registry;
  slot: number;
  processes: number;
  timeoutMs: number;
}): ProcessPeers {
  let view: { up: readonly number[]; processes: number } = { up: [input.slot], processes: input.processes };
  const pendingAsks = new Map<number, (text: string | undefined) => void>();
  let nextAsk = 0;
  const send = (message: ProcessMessage) => process.send?.(message);
  process.on('message', (message: unknown) => {
    if (!isProcessMessage(message)) return;
    if (message.type === 'gateway:metrics-request') {
      void input.registry.getMetricsAsJSON().then((metrics) => {
        send({ type: 'gateway:metrics-reply', id: message.id, metrics: toMetricSnapshots(metrics) });
      });
    } else if (message.type === 'gateway:processes') {
      view = { up: message.up, processes: message.processes };
    } else if (message.type === 'gateway:metrics-answer') {
      pendingAsks.get(message.id)?.(message.text);
    }
  });
  const readGatewayMetrics = () =>
    new Promise<string | undefined>((resolve) => {
      const id = (nextAsk += 1);
      const finish = (text: string | undefined) => {
        clearTimeout(timer);
        pendingAsks.delete(id);
        resolve(text);
      };
      const timer = setTimeout(() => finish(undefined), input.timeoutMs);
      pendingAsks.set(id, finish);
      send({ type: 'gateway:metrics-ask', id });
    });
  return { slot: input.slot, readProcesses: () => view, readGatewayMetrics };
}

/** Tells the launcher this process has started and listens, so the others count it among the serving. */
export function announceServing(): void {
  const message: ProcessMessage = { type: 'gateway:serving' };
  process.send?.(message);
}
