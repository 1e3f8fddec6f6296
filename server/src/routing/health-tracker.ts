import { createCircuitBreaker, type CircuitBreaker } from './circuit-breaker.ts';
import { nextEwma } from './ewma.ts';
import type { AttemptOutcome, RouteHealthView, RouteState } from './route-health.ts';
import type { RoutingSettings } from '../config/routing-settings.ts';

/** A started call on a route; `finish` is idempotent, so every exit path may call it. */
export type RouteAttempt = {
  routeId: string;
  startedAtMs: number;
  recordFirstByte: (nowMs: number) => void;
  finish: (outcome: AttemptOutcome, nowMs: number) => void;
};

export type HealthTracker = {
  view: (route: { id: string; maxConcurrency?: number }, nowMs: number) => RouteHealthView;
  /** Starts a call when the route may take one now (breaker, cooling, concurrency cap); else undefined. */
  tryStart: (route: { id: string; maxConcurrency?: number }, nowMs: number) => RouteAttempt | undefined;
  /** Every route this node has seen, for metrics. */
  routeIds: () => readonly string[];
};

type HealthRecord = {
  breaker: CircuitBreaker;
  errorRate: number;
  timeToFirstTokenMs: number | undefined;
  latencyMs: number | undefined;
  inFlight: number;
  coolingUntilMs: number;
  attempts: number;
  failures: number;
};

/**
 * Per-route health, kept in this node's memory (each node judges the upstreams by what it sees itself): moving
 * averages of error rate, time to first token and latency, the in-flight count, a circuit breaker, and the cooling
 * a `Retry-After` asks for.
 */
export function createHealthTracker(settings: RoutingSettings): HealthTracker {
  const records = new Map<string, HealthRecord>();
  const recordOf = (routeId: string): HealthRecord => {
    let record = records.get(routeId);
    if (!record) {
      record = {
        breaker: createCircuitBreaker(settings.breaker),
        errorRate: 0,
        timeToFirstTokenMs: undefined,
        latencyMs: undefined,
        inFlight: 0,
        coolingUntilMs: 0,
        attempts: 0,
        failures: 0,
      };
      records.set(routeId, record);
    }
    return record;
  };
  const isUnderCap = (record: HealthRecord, maxConcurrency: number | undefined) =>
    maxConcurrency === undefined || record.inFlight < maxConcurrency;

  const view = (route: { id: string; maxConcurrency?: number }, nowMs: number): RouteHealthView => {
    const record = recordOf(route.id);
    const breakerState = record.breaker.state();
    const isCooling = record.coolingUntilMs > nowMs;
    return {
      routeId: route.id,
      state: describeState(breakerState, isCooling),
      breakerState,
      errorRate: record.errorRate,
      timeToFirstTokenMs: record.timeToFirstTokenMs,
      latencyMs: record.latencyMs,
      inFlight: record.inFlight,
      coolingUntilMs: isCooling ? record.coolingUntilMs : undefined,
      probeAtMs: breakerState === 'closed' ? undefined : record.breaker.reopensAtMs(),
      isAvailable: !isCooling && record.breaker.canPass(nowMs) && isUnderCap(record, route.maxConcurrency),
      attempts: record.attempts,
      failures: record.failures,
    };
  };

  const tryStart = (route: { id: string; maxConcurrency?: number }, nowMs: number): RouteAttempt | undefined => {
    const record = recordOf(route.id);
    if (record.coolingUntilMs > nowMs || !isUnderCap(record, route.maxConcurrency)) return undefined;
    if (!record.breaker.tryPass(nowMs)) return undefined;
    record.inFlight += 1;
    record.attempts += 1;
    let isFinished = false;
    let hasFirstByte = false;
    return {
      routeId: route.id,
      startedAtMs: nowMs,
      recordFirstByte: (atMs) => {
        if (hasFirstByte || isFinished) return;
        hasFirstByte = true;
        record.timeToFirstTokenMs = nextEwma(record.timeToFirstTokenMs, atMs - nowMs, settings.ewmaSmoothing);
        // The upstream answered: the route works, whatever happens to the rest of the stream.
        record.breaker.recordSuccess();
      },
      finish: (outcome, atMs) => {
        if (isFinished) return;
        isFinished = true;
        record.inFlight -= 1;
        applyOutcome(record, { outcome, nowMs: atMs, startedAtMs: nowMs, settings });
      },
    };
  };

  return { view, tryStart, routeIds: () => [...records.keys()] };
}

function applyOutcome(
  record: HealthRecord,
  input: { outcome: AttemptOutcome; nowMs: number; startedAtMs: number; settings: RoutingSettings },
): void {
  const { outcome, nowMs, settings } = input;
  switch (outcome.kind) {
    case 'abandoned':
      record.breaker.releaseProbe();
      return;
    case 'success':
    case 'request_error':
      record.errorRate = nextEwma(record.errorRate, 0, settings.ewmaSmoothing);
      record.latencyMs = nextEwma(record.latencyMs, nowMs - input.startedAtMs, settings.ewmaSmoothing);
      record.breaker.recordSuccess();
      return;
    case 'failure':
      record.failures += 1;
      record.errorRate = nextEwma(record.errorRate, 1, settings.ewmaSmoothing);
      record.breaker.recordFailure(nowMs);
      if (outcome.retryAfterMs !== undefined && outcome.retryAfterMs > 0) {
        const until = nowMs + Math.min(outcome.retryAfterMs, settings.maxCoolingMs);
        record.coolingUntilMs = Math.max(record.coolingUntilMs, until);
      }
      return;
    default:
      outcome satisfies never;
  }
}

function describeState(breakerState: RouteHealthView['breakerState'], isCooling: boolean): RouteState {
  if (breakerState !== 'closed') return breakerState;
  return isCooling ? 'cooling' : 'healthy';
}
