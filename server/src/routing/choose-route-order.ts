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
  /**
   * The conversation, or a function giving it: called only when a group has more than one route to order (most
   * models have one route per tier), so a call to a model with a single route hashes nothing.
   */
  affinityKey: string | undefined | (() => string | undefined);
  viewOf: (route: Candidate) => RouteHealthView;
  random: () => number;
  isCheapestFirst?: boolean;
}): RouteOrder<Candidate> {
  const usable = input.routes.filter((route) => isAllowedFor(route, input.userId));
  // One route the account may use (most models): the same order as below, without building groups to sort.
  const [only] = usable;
  if (usable.length === 1 && only !== undefined) {
    const view = input.viewOf(only);
    return view.isAvailable
      ? { ordered: [only], unavailable: [] }
      : { ordered: [], unavailable: [{ route: only, view }] };
  }
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
  let affinityKey = input.affinityKey;
  const affinity = () => {
    if (typeof affinityKey === 'function') affinityKey = affinityKey();
    return affinityKey;
  };
  const ordered = [...groups.values()]
    .sort((left, right) => compareTier(left[0], right[0]))
    .flatMap((group) => (group.length === 1 ? [group[0]!.route] : orderEquals(group, { ...input, affinity })));
  return { ordered, unavailable };
}

function orderEquals<Candidate extends RoutingCandidate>(
  group: { route: Candidate; view: RouteHealthView }[],
  input: { affinity: () => string | undefined; random: () => number; isCheapestFirst?: boolean | undefined },
): Candidate[] {
  const affinityKey = input.affinity();
  const fastest = Math.min(...group.map((entry) => entry.view.timeToFirstTokenMs ?? Infinity));
  const keyed = group.map((entry) => {
    const weight = entry.route.weight * healthFactor(entry.view, fastest);
    const uniform = affinityKey === undefined ? input.random() : hashToUnit(affinityKey, entry.route.id);
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

/**
 * A stable number in (0, 1) for a conversation and a route. The value only spreads conversations over routes, so a
 * non-cryptographic hash does (the affinity key is already a digest of the conversation): FNV-1a over key and route
 * from two offsets, each mixed by MurmurHash3's finaliser so that routes whose ids differ in one character still get
 * unrelated numbers, 24 bits from each. SHA-256 here cost a hash object and a buffer per route and call.
 */
export function hashToUnit(affinityKey: string, routeId: string): number {
  const high = mix32(fnv1a(routeId, fnv1a(affinityKey, 0x811c9dc5)));
  const low = mix32(fnv1a(routeId, fnv1a(affinityKey, 0x050c5d1f)));
  return ((high >>> 8) * 2 ** 24 + (low >>> 8) + 0.5) / 2 ** 48;
}

function fnv1a(text: string, offset: number): number {
  let hash = offset;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash;
}

function mix32(value: number): number {
  let hash = value ^ (value >>> 16);
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
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
