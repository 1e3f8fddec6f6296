import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { RouteHealthView } from './route-health.ts';

/** How one upstream attempt ended, as counted in `gateway_route_attempts_total`. */
export type AttemptResult =
  'success' | 'request_error' | 'retryable_error' | 'credential_error' | 'timeout' | 'mid_stream_error' | 'abandoned';

export type RoutingMetrics = {
  countAttempt: (input: { routeId: string; provider: string; result: AttemptResult }) => void;
  observeTimeToFirstToken: (routeId: string, milliseconds: number) => void;
  observeLatency: (routeId: string, milliseconds: number) => void;
  countRetryRefused: () => void;
};

const breakerValue = { closed: 0, half_open: 1, open: 2 } as const satisfies Record<
  RouteHealthView['breakerState'],
  number
>;

/**
 * Per-route Prometheus metrics on the gateway's registry. Route ids are the only per-route label (a bounded set the
 * operator creates); gauges read the health tracker when scraped.
 */
export function createRoutingMetrics(input: {
  registry: Registry;
  listHealth: () => readonly RouteHealthView[];
}): RoutingMetrics {
  const registers = [input.registry];
  const attempts = new Counter({
    name: 'gateway_route_attempts_total',
    help: 'Upstream attempts by route, provider and result',
    labelNames: ['route', 'provider', 'result'],
    registers,
  });
  const timeToFirstToken = new Histogram({
    name: 'gateway_route_time_to_first_token_seconds',
    help: 'Time from sending an upstream request to its first answer byte, by route',
    labelNames: ['route'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120],
    registers,
  });
  const latency = new Histogram({
    name: 'gateway_route_latency_seconds',
    help: 'Time from sending an upstream request to its last byte, by route',
    labelNames: ['route'],
    buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600],
    registers,
  });
  const retryRefused = new Counter({
    name: 'gateway_route_retries_refused_total',
    help: 'Failovers not attempted because the retry budget was spent',
    registers,
  });
  new Gauge({
    name: 'gateway_route_breaker_state',
    help: 'Circuit breaker of each route on this node: 0 closed, 1 half-open, 2 open',
    labelNames: ['route'],
    registers,
    collect() {
      this.reset();
      for (const view of input.listHealth()) this.set({ route: view.routeId }, breakerValue[view.breakerState]);
    },
  });
  new Gauge({
    name: 'gateway_route_cooling',
    help: '1 while a route rests after an upstream Retry-After',
    labelNames: ['route'],
    registers,
    collect() {
      this.reset();
      for (const view of input.listHealth()) this.set({ route: view.routeId }, view.state === 'cooling' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'gateway_route_in_flight',
    help: 'Upstream calls in flight on each route on this node',
    labelNames: ['route'],
    registers,
    collect() {
      this.reset();
      for (const view of input.listHealth()) this.set({ route: view.routeId }, view.inFlight);
    },
  });
  return {
    countAttempt: ({ routeId, provider, result }) => attempts.inc({ route: routeId, provider, result }),
    observeTimeToFirstToken: (routeId, milliseconds) =>
      timeToFirstToken.observe({ route: routeId }, milliseconds / 1000),
    observeLatency: (routeId, milliseconds) => latency.observe({ route: routeId }, milliseconds / 1000),
    countRetryRefused: () => retryRefused.inc(),
  };
}
