import type { BreakerState } from './circuit-breaker.ts';

/** What an attempt on a route came to; `request_error` and `abandoned` say nothing bad about the route. */
export type AttemptOutcome =
  | { kind: 'success' }
  | { kind: 'request_error' }
  | { kind: 'abandoned' }
  | { kind: 'failure'; reason: 'retryable' | 'credential' | 'timeout' | 'mid_stream'; retryAfterMs?: number };

/** Operator-facing state of a route on this node. */
export type RouteState = 'healthy' | 'cooling' | 'open' | 'half_open';

/** One route's health on this node, as the policy and the operator API see it. */
export type RouteHealthView = {
  routeId: string;
  state: RouteState;
  breakerState: BreakerState;
  /** Moving average of the share of failed attempts, 0..1. */
  errorRate: number;
  timeToFirstTokenMs: number | undefined;
  latencyMs: number | undefined;
  inFlight: number;
  /** Until when a `Retry-After` keeps the route out of rotation (Unix ms), if it does now. */
  coolingUntilMs: number | undefined;
  /** When an open breaker lets its next probe through (Unix ms). */
  probeAtMs: number | undefined;
  /** Whether a new call may start now (not open or probing, not cooling, under the concurrency cap). */
  isAvailable: boolean;
  attempts: number;
  failures: number;
};
