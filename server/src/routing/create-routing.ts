import type { Registry } from 'prom-client';
import type { Clock } from '../lib/clock.ts';
import type { ChatRequest } from '../openai-api/chat-request.ts';
import { chooseRouteOrder, type RouteOrder, type RoutingCandidate } from './choose-route-order.ts';
import { deriveAffinityKey } from './derive-affinity-key.ts';
import { createHealthTracker, type RouteAttempt } from './health-tracker.ts';
import { createRetryBudget, type RetryBudget } from './retry-budget.ts';
import type { RouteHealthView } from './route-health.ts';
import { createRoutingMetrics, type RoutingMetrics } from './routing-metrics.ts';
import type { RoutingSettings } from './routing-settings.ts';

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
    request: ChatRequest;
  }) => RouteOrder<Candidate>;
  viewOf: (route: { id: string; maxConcurrency?: number }) => RouteHealthView;
  tryStart: (route: { id: string; maxConcurrency?: number }) => RouteAttempt | undefined;
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
        affinityKey: deriveAffinityKey({ userId: input.userId, request: input.request }),
        viewOf,
        random: deps.random,
      }),
    viewOf,
    tryStart: (route) => tracker.tryStart(route, deps.clock.nowMs()),
  };
}
