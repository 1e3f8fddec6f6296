import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chooseRouteOrder, type RoutingCandidate } from './choose-route-order.ts';
import type { RouteHealthView } from './route-health.ts';

const costed = (id: string, inputMicros: number, overrides: Partial<RoutingCandidate> = {}): RoutingCandidate => ({
  id,
  priority: 10,
  weight: 1,
  cost: { inputMicros, outputMicros: inputMicros * 4, perRequestMicros: null },
  ...overrides,
});

const view = (routeId: string, overrides: Partial<RouteHealthView> = {}): RouteHealthView => ({
  routeId,
  state: 'healthy',
  breakerState: 'closed',
  errorRate: 0,
  timeToFirstTokenMs: undefined,
  latencyMs: undefined,
  inFlight: 0,
  coolingUntilMs: undefined,
  probeAtMs: undefined,
  isAvailable: true,
  attempts: 0,
  failures: 0,
  ...overrides,
});

const order = (
  routes: RoutingCandidate[],
  options: { isCheapestFirst: boolean; views?: Record<string, Partial<RouteHealthView>>; random?: number },
) =>
  chooseRouteOrder({
    routes,
    userId: 'usr_1',
    affinityKey: undefined,
    viewOf: (route) => view(route.id, options.views?.[route.id]),
    random: () => options.random ?? 0.5,
    isCheapestFirst: options.isCheapestFirst,
  }).ordered.map((route) => route.id);

describe('cheapest-first routing (ROUTE_PREFER_CHEAPEST)', () => {
  const routes = [costed('dear', 3_000_000), costed('cheap', 1_000_000), costed('middle', 2_000_000)];

  it('orders healthy routes of equal priority by cost, cheapest first', () => {
    assert.deepEqual(order(routes, { isCheapestFirst: true }), ['cheap', 'middle', 'dear']);
  });

  it('puts a cheaper route that is failing behind the healthy ones', () => {
    const views = { cheap: { state: 'half_open' as const } };
    assert.deepEqual(order(routes, { isCheapestFirst: true, views }), ['middle', 'dear', 'cheap']);
  });

  it('never lets cost jump a priority: a cheaper route of a later priority stays later', () => {
    const withBackup = [costed('first', 5_000_000, { priority: 1 }), costed('backup', 1, { priority: 20 })];
    assert.deepEqual(order(withBackup, { isCheapestFirst: true }), ['first', 'backup']);
  });

  it('leaves the weighted order alone when the policy is off', () => {
    const weighted = [costed('cheap', 1, { weight: 0 }), costed('dear', 9_000_000, { weight: 1 })];
    assert.deepEqual(order(weighted, { isCheapestFirst: false }), ['dear', 'cheap']);
  });
});
