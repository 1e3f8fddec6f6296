import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chooseRouteOrder, healthFactor, type RoutingCandidate } from './choose-route-order.ts';
import type { RouteHealthView } from './route-health.ts';

const route = (id: string, overrides: Partial<RoutingCandidate> = {}): RoutingCandidate => ({
  id,
  priority: 10,
  weight: 1,
  ...overrides,
});

const healthy = (routeId: string, overrides: Partial<RouteHealthView> = {}): RouteHealthView => ({
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

/** A deterministic sequence of "random" numbers. */
const sequence = (...values: number[]) => {
  let index = 0;
  return () => values[index++ % values.length] ?? 0.5;
};

const order = (
  routes: RoutingCandidate[],
  options: {
    userId?: string;
    affinityKey?: string;
    views?: Record<string, Partial<RouteHealthView>>;
    random?: () => number;
  } = {},
) =>
  chooseRouteOrder({
    routes,
    userId: options.userId ?? 'usr_a',
    affinityKey: options.affinityKey,
    viewOf: (candidate) => healthy(candidate.id, options.views?.[candidate.id]),
    random: options.random ?? sequence(0.5),
  });

const ids = (routes: readonly RoutingCandidate[]) => routes.map((candidate) => candidate.id);

describe('routing policy', () => {
  it('orders by priority, lower number first', () => {
    const result = order([route('b', { priority: 20 }), route('a', { priority: 5 }), route('c', { priority: 10 })]);
    assert.deepEqual(ids(result.ordered), ['a', 'c', 'b']);
  });

  it('leaves out routes that are open, cooling or at their concurrency cap, and says so', () => {
    const result = order([route('open'), route('cool'), route('full'), route('ok')], {
      views: {
        open: { isAvailable: false, state: 'open', breakerState: 'open' },
        cool: { isAvailable: false, state: 'cooling' },
        full: { isAvailable: false, inFlight: 4 },
      },
    });
    assert.deepEqual(ids(result.ordered), ['ok']);
    assert.deepEqual(
      result.unavailable.map((entry) => entry.route.id),
      ['open', 'cool', 'full'],
    );
  });

  it('serves a reserved route only to its accounts, and prefers it for them over a better priority', () => {
    const routes = [
      route('shared', { priority: 1 }),
      route('dedicated', { priority: 50, reservedForUserIds: ['usr_vip'] }),
    ];
    assert.deepEqual(ids(order(routes, { userId: 'usr_other' }).ordered), ['shared']);
    assert.deepEqual(ids(order(routes, { userId: 'usr_vip' }).ordered), ['dedicated', 'shared']);
  });

  it('picks among equals in proportion to their weights', () => {
    const routes = [route('heavy', { weight: 3 }), route('light', { weight: 1 })];
    const firsts = { heavy: 0, light: 0 };
    // Uniform draws over a grid: the first route gets u1, the second u2.
    const steps = 40;
    for (let first = 0; first < steps; first += 1) {
      for (let second = 0; second < steps; second += 1) {
        const random = sequence((first + 0.5) / steps, (second + 0.5) / steps);
        const winner = order(routes, { random }).ordered[0]?.id as 'heavy' | 'light';
        firsts[winner] += 1;
      }
    }
    const share = firsts.heavy / (steps * steps);
    assert.ok(share > 0.7 && share < 0.8, `heavy share ${share} is near 3/4`);
  });

  it('puts weight-0 routes after the weighted ones of their priority', () => {
    const result = order([route('backup', { weight: 0 }), route('main', { weight: 1 })], { random: sequence(0.999) });
    assert.deepEqual(ids(result.ordered), ['main', 'backup']);
  });

  it('sends the same conversation to the same route, whatever the random source says', () => {
    const routes = [route('r1'), route('r2'), route('r3'), route('r4')];
    const first = order(routes, { affinityKey: 'conversation-1', random: sequence(0.1) }).ordered[0]?.id;
    for (const value of [0.2, 0.5, 0.9]) {
      assert.equal(order(routes, { affinityKey: 'conversation-1', random: sequence(value) }).ordered[0]?.id, first);
    }
    const winners = new Set(
      Array.from({ length: 40 }, (_, index) => order(routes, { affinityKey: `conversation-${index}` }).ordered[0]?.id),
    );
    assert.ok(winners.size >= 3, 'different conversations spread over the routes');
  });

  it('spreads conversations by weight, also over routes whose ids differ in one character', () => {
    const routes = [route('route-1', { weight: 3 }), route('route-2', { weight: 1 })];
    const conversations = 4_000;
    let heavyFirst = 0;
    for (let index = 0; index < conversations; index += 1) {
      if (order(routes, { affinityKey: `conversation-${index}` }).ordered[0]?.id === 'route-1') heavyFirst += 1;
    }
    const share = heavyFirst / conversations;
    assert.ok(share > 0.72 && share < 0.78, `heavy share ${share} is near 3/4`);
  });

  it('derives the conversation only when a group has more than one route to order', () => {
    let derived = 0;
    const affinityKey = () => {
      derived += 1;
      return 'conversation-1';
    };
    const choose = (routes: RoutingCandidate[]) =>
      chooseRouteOrder({ routes, userId: 'usr_a', affinityKey, viewOf: (c) => healthy(c.id), random: sequence(0.5) });
    assert.deepEqual(ids(choose([route('only')]).ordered), ['only']);
    assert.equal(derived, 0);
    const twice = [route('a'), route('b'), route('c', { priority: 20 }), route('d', { priority: 20 })];
    assert.equal(choose(twice).ordered.length, 4);
    assert.equal(derived, 1, 'derived once for both groups');
  });

  it('gives the one route an account may use, or says why it is out of rotation', () => {
    const reservedElsewhere = route('theirs', { reservedForUserIds: ['usr_b'] });
    assert.deepEqual(ids(order([reservedElsewhere, route('public')]).ordered), ['public']);
    const cooling = order([route('only')], { views: { only: { isAvailable: false, state: 'cooling' } } });
    assert.deepEqual(ids(cooling.ordered), []);
    assert.deepEqual(
      cooling.unavailable.map((entry) => [entry.route.id, entry.view.state]),
      [['only', 'cooling']],
    );
    assert.deepEqual(order([reservedElsewhere], { userId: 'usr_a' }), { ordered: [], unavailable: [] });
  });

  it('keeps a conversation where it was when another route drops out', () => {
    const routes = [route('r1'), route('r2'), route('r3')];
    for (let index = 0; index < 20; index += 1) {
      const key = `conversation-${index}`;
      const chosen = order(routes, { affinityKey: key }).ordered[0]?.id;
      const other = routes.find((candidate) => candidate.id !== chosen)?.id ?? '';
      const after = order(routes, { affinityKey: key, views: { [other]: { isAvailable: false } } }).ordered[0]?.id;
      assert.equal(after, chosen);
    }
  });

  it('moves traffic away from a route with errors or a slow first token', () => {
    assert.equal(healthFactor(healthy('a'), 100), 1);
    assert.equal(healthFactor(healthy('a', { timeToFirstTokenMs: 120 }), 100), 1, 'small differences do not count');
    assert.equal(healthFactor(healthy('a', { errorRate: 0.5 }), Infinity), 0.5);
    assert.equal(healthFactor(healthy('a', { timeToFirstTokenMs: 2500 }), 500), 0.25);
    assert.equal(healthFactor(healthy('a', { errorRate: 1 }), Infinity), 0.05);
    const routes = [route('sick'), route('well')];
    const views = { sick: { errorRate: 0.9 } };
    let sickFirst = 0;
    for (let index = 0; index < 200; index += 1) {
      if (order(routes, { affinityKey: `c${index}`, views }).ordered[0]?.id === 'sick') sickFirst += 1;
    }
    assert.ok(sickFirst < 40, `the sick route led ${sickFirst} of 200 times`);
  });
});
