import { createHash } from 'node:crypto';
import type { RouteCost } from '../catalog/route-cost.ts';
import type { RouteHealthView } from './route-health.ts';

/** What the policy needs of a route (a subset of the catalogue's `Route`). */
export type RoutingCandidate = {
  id: string;
  priority: number;
  weight: number;
  maxConcurrency?: number;
  /** Accounts the route is reserved for; empty: every account. */
  reservedForUserIds?: readonly string[];
  /** What the route costs us (the catalogue's `RouteCost`), for the cheapest-first policy. */
  cost?: Pick<RouteCost, 'inputMicros' | 'outputMicros' | 'perRequestMicros'>;
};

export type RouteOrder<Candidate extends RoutingCandidate> = {
  /** The routes to try, best first. */
  ordered: Candidate[];
  /** Routes the account may use that are out of rotation right now, with why. */
  unavailable: { route: Candidate; view: RouteHealthView }[];
};

/** Health factors are rounded to this step, so small jitter between equally healthy routes keeps affinity stable. */
const healthStep = 0.25;
const minimumHealth = 0.05;
/** Time-to-first-token differences below about this much do not make one route look slower than another. */
const speedSlackMs = 500;

/**
 * THE routing policy, in one place (docs/routing.md explains it with an example):
 * 1. Only routes the account may use: a route reserved for accounts serves only them.
 * 2. Only routes available now: breaker not open (or its single probe free), not cooling after a Retry-After, under
 *    its concurrency cap.
 * 3. Routes reserved for this account first (a dedicated channel is preferred by its owner), then by priority
 *    (lower number first).
 * 4. Among equals (same tier and priority): a weighted random order (Efraimidis–Spirakis) by weight × health, where
 *    health falls with the error rate and with a slower time to first token than the tier's best. With an affinity
 *    key (the conversation), the "random" numbers are a hash of (key, route id): weighted rendezvous hashing, so the
 *    same conversation lands on the same route while it stays available and vendor prompt caches keep hitting.
 *    Weight 0 makes a route a backup: tried after the weighted ones of its tier.
 * 5. With cheapest-first on (ROUTE_PREFER_CHEAPEST), the healthy routes of a group come first, cheapest first (cost
 *    of 10M input + 1M output tokens, or of one image); step 4 orders only routes of equal cost, and the group's
 *    unhealthy routes (errors, probing) follow.
 */
export function chooseRouteOrder<Candidate extends RoutingCandidate>(input: {
  routes: readonly Candidate[];
  userId: string;
  affinityKey: string | undefined;
  viewOf: (route: Candidate) => RouteHealthView;
  random: () => number;
  isCheapestFirst?: boolean;
}): RouteOrder<Candidate> {
  const usable = input.routes.filter((route) => isAllowedFor(route, input.userId));
  const unavailable: RouteOrder<Candidate>['unavailable'] = [];
  const available: { route: Candidate; view: RouteHealthView; tier: number }[] = [];
  for (const route of usable) {
    const view = input.viewOf(route);
    if (!view.isAvailable) unavailable.push({ route, view });
    else available.push({ route, view, tier: isReservedFor(route, input.userId) ? 0 : 1 });
  }
  const groups = new Map<string, typeof available>();
  for (const entry of available) {
    const key = `${entry.tier}:${entry.route.priority}`;
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  const ordered = [...groups.values()]
    .sort((left, right) => compareTier(left[0], right[0]))
    .flatMap((group) => orderEquals(group, input));
  return { ordered, unavailable };
}

function orderEquals<Candidate extends RoutingCandidate>(
  group: { route: Candidate; view: RouteHealthView }[],
  input: { affinityKey: string | undefined; random: () => number; isCheapestFirst?: boolean | undefined },
): Candidate[] {
  const fastest = Math.min(...group.map((entry) => entry.view.timeToFirstTokenMs ?? Infinity));
  const keyed = group.map((entry) => {
    const weight = entry.route.weight * healthFactor(entry.view, fastest);
    const uniform = input.affinityKey === undefined ? input.random() : hashToUnit(input.affinityKey, entry.route.id);
    // -ln(u)/w: the smallest key wins; sorting by it is a weighted random permutation. Weight 0 sorts last.
    const sortKey = weight > 0 ? -Math.log(Math.max(uniform, Number.MIN_VALUE)) / weight : Infinity;
    return { route: entry.route, sortKey, costKey: input.isCheapestFirst ? costKeyOf(entry) : 0 };
  });
  return keyed
    .sort((left, right) => left.costKey - right.costKey || left.sortKey - right.sortKey)
    .map((entry) => entry.route);
}

/** Healthy routes by their cost (unknown cost after known ones); every other route after all healthy ones. */
function costKeyOf(entry: { route: RoutingCandidate; view: RouteHealthView }): number {
  if (entry.view.state !== 'healthy' || entry.view.errorRate > 0.5) return Number.MAX_SAFE_INTEGER;
  const cost = entry.route.cost;
  if (!cost) return Number.MAX_SAFE_INTEGER - 1;
  return cost.inputMicros * 10 + cost.outputMicros + (cost.perRequestMicros ?? 0);
}

/** 1 for a route without errors and as fast as the best of its tier, down to 0.05; rounded to quarter steps. */
export function healthFactor(view: RouteHealthView, fastestTimeToFirstTokenMs: number): number {
  const success = 1 - view.errorRate;
  const ttft = view.timeToFirstTokenMs;
  const speed =
    ttft === undefined || !Number.isFinite(fastestTimeToFirstTokenMs)
      ? 1
      : (fastestTimeToFirstTokenMs + speedSlackMs) / (ttft + speedSlackMs);
  return Math.max(minimumHealth, Math.round((success * speed) / healthStep) * healthStep);
}

/** A stable number in (0, 1) for a conversation and a route. */
export function hashToUnit(affinityKey: string, routeId: string): number {
  const digest = createHash('sha256').update(affinityKey).update('\u0000').update(routeId).digest();
  return (digest.readUIntBE(0, 6) + 0.5) / 2 ** 48;
}

/** Rule 1 of the policy: a route reserved for accounts serves only them (and `/v1/models` lists only usable models). */
export function isAllowedFor(route: Pick<RoutingCandidate, 'reservedForUserIds'>, userId: string): boolean {
  const reserved = route.reservedForUserIds ?? [];
  return reserved.length === 0 || reserved.includes(userId);
}

function isReservedFor(route: RoutingCandidate, userId: string): boolean {
  return (route.reservedForUserIds ?? []).includes(userId);
}

function compareTier(
  left: { route: RoutingCandidate; tier: number } | undefined,
  right: { route: RoutingCandidate; tier: number } | undefined,
): number {
  if (!left || !right) return 0;
  return left.tier - right.tier || left.route.priority - right.route.priority;
}
