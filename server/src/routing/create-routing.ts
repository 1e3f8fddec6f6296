import type { Registry } from 'prom-client';
import type { Clock } from '../lib/clock.ts';
import type { ChatRequest } from '../openai-api/chat-request.ts';
import { chooseRouteOrder, type RouteOrder, type RoutingCandidate } from './choose-route-order.ts';
import { deriveAffinityKey } from './derive-affinity-key.ts';
import { createHealthTracker } from './health-tracker.ts';
import { createRetryBudget, type RetryBudget } from './retry-budget.ts';
import type { AttemptOutcome, RouteHealthView } from './route-health.ts';
import { createRoutingMetrics, type AttemptResult, type RoutingMetrics } from './routing-metrics.ts';
import type { RoutingSettings } from '../config/routing-settings.ts';

/** This node's routing state: route health, the retry budget and the metrics, behind the policy. */
export type Routing = {
  settings: RoutingSettings;
  clock: Clock;
  budget: RetryBudget;
  metrics: RoutingMetrics | undefined;
  /** The routes to try for a request, best first (the policy of `choose-route-order.ts`). */
  order: <Candidate extends RoutingCandidate>(input: {
    routes: readonly Candidate[];
    userId: string;
    /** A chat request's conversation keeps it on one route among equals; without one, equals are in random order. */
    request?: ChatRequest;
  }) => RouteOrder<Candidate>;
  viewOf: (route: { id: string; maxConcurrency?: number }) => RouteHealthView;
  /** Starts a call on a route when it may take one now; its outcome feeds the route's health and the metrics. */
  tryStart: (route: { id: string; provider: string; maxConcurrency?: number }) => TrackedAttempt | undefined;
};

/** A call in progress on a route. `finish` counts once, whichever exit path calls it first. */
export type TrackedAttempt = {
  /** The first chunk of a streamed answer arrived (time to first token). */
  recordFirstByte: () => void;
  finish: (outcome: AttemptOutcome) => void;
};

export function createRouting(deps: {
  clock: Clock;
  random: () => number;
  settings: RoutingSettings;
  /** Where the per-route metrics go; none in unit tests. */
  registry?: Registry;
}): Routing {
  const tracker = createHealthTracker(deps.settings);
  const viewOf = (route: { id: string; maxConcurrency?: number }) => tracker.view(route, deps.clock.nowMs());
  const metrics =
    deps.registry === undefined
      ? undefined
      : createRoutingMetrics({
          registry: deps.registry,
          listHealth: () => tracker.routeIds().map((id) => viewOf({ id })),
        });
  return {
    settings: deps.settings,
    clock: deps.clock,
    budget: createRetryBudget(deps.settings.retryBudget),
    metrics,
    order: (input) =>
      chooseRouteOrder({
        routes: input.routes,
        userId: input.userId,
        affinityKey: () =>
          input.request === undefined ? undefined : deriveAffinityKey({ userId: input.userId, request: input.request }),
        viewOf,
        random: deps.random,
        isCheapestFirst: deps.settings.preferCheapest === true,
      }),
    viewOf,
    tryStart: (route) => {
      const startedAtMs = deps.clock.nowMs();
      const attempt = tracker.tryStart(route, startedAtMs);
      if (!attempt) return undefined;
      let isFinished = false;
      let hasFirstByte = false;
      return {
        recordFirstByte: () => {
          if (hasFirstByte || isFinished) return;
          hasFirstByte = true;
          const nowMs = deps.clock.nowMs();
          metrics?.observeTimeToFirstToken(route.id, nowMs - startedAtMs);
          attempt.recordFirstByte(nowMs);
        },
        finish: (outcome) => {
          if (isFinished) return;
          isFinished = true;
          const nowMs = deps.clock.nowMs();
          attempt.finish(outcome, nowMs);
          metrics?.countAttempt({ routeId: route.id, provider: route.provider, result: describeResult(outcome) });
          if (outcome.kind === 'success') metrics?.observeLatency(route.id, nowMs - startedAtMs);
        },
      };
    },
  };
}

function describeResult(outcome: AttemptOutcome): AttemptResult {
  if (outcome.kind !== 'failure') return outcome.kind;
  const results = {
    retryable: 'retryable_error',
    credential: 'credential_error',
    timeout: 'timeout',
    mid_stream: 'mid_stream_error',
  } as const satisfies Record<typeof outcome.reason, AttemptResult>;
  return results[outcome.reason];
}
