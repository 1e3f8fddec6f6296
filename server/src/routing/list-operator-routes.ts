import type { OperatorRoute, RouteHealth } from '../../../contract/operator-routes.ts';
import { readRouteOptions } from '../catalog/route-settings.ts';
import type { Route, RouteTable } from '../catalog/route-table.ts';
import type { Database } from '../db/database.ts';
import { findRoute, listRoutes } from '../db/routes.ts';
import type { RouteRow } from '../db/schema.ts';
import type { Routing } from './create-routing.ts';
import type { RouteHealthView } from './route-health.ts';

export type ListOperatorRoutesDeps = { db: Database; routeTable: RouteTable; routing: Routing };

/**
 * Every route with its live health on this node: the operator's routes from the database (disabled ones too), then
 * the implicit environment and sandbox routes (switched-off ones too). Credentials never leave: only whether one is
 * set.
 */
export async function listOperatorRoutes(deps: ListOperatorRoutesDeps): Promise<{ data: OperatorRoute[] }> {
  const rows = await listRoutes(deps.db);
  const fromDatabase = rows.map((row) => toOperatorRoute(deps, row));
  return { data: [...fromDatabase, ...listImplicitRoutes(deps)] };
}

/** One operator route by id, with its health; undefined when there is none. */
export async function findOperatorRoute(
  deps: ListOperatorRoutesDeps,
  routeId: string,
): Promise<OperatorRoute | undefined> {
  const row = await findRoute(deps.db, routeId);
  if (row !== undefined) return toOperatorRoute(deps, row);
  return listImplicitRoutes(deps).find((route) => route.id === routeId);
}

function listImplicitRoutes(deps: ListOperatorRoutesDeps): OperatorRoute[] {
  const enabled = deps.routeTable.allRoutes().filter((route) => route.origin !== 'database');
  return [
    ...enabled.map((route) => toImplicitRoute(deps, route, { isEnabled: true })),
    ...deps.routeTable.disabledImplicitRoutes().map((route) => toImplicitRoute(deps, route, { isEnabled: false })),
  ];
}

function toOperatorRoute(deps: ListOperatorRoutesDeps, row: RouteRow): OperatorRoute {
  const maxConcurrency = row.max_concurrency ?? undefined;
  return {
    id: row.id,
    model: row.model_id,
    provider: row.provider,
    base_url: row.base_url,
    upstream_model: row.upstream_model,
    origin: 'database',
    enabled: row.enabled === 1,
    has_credential: row.credential_ciphertext !== null,
    priority: row.priority,
    weight: row.weight,
    input_cost_micros: row.input_cost_micros,
    output_cost_micros: row.output_cost_micros,
    cached_input_cost_micros: row.cached_input_cost_micros,
    per_request_cost_micros: row.per_request_cost_micros,
    max_concurrency: row.max_concurrency,
    connect_timeout_ms: row.connect_timeout_ms,
    first_byte_timeout_ms: row.first_byte_timeout_ms,
    idle_timeout_ms: row.idle_timeout_ms,
    reserved_for: (row.reserved_for_user_ids ?? '').split('\n').filter((id) => id !== ''),
    options: readRouteOptions(row.vendor_options),
    health: toHealth(
      deps.routing.viewOf(maxConcurrency === undefined ? { id: row.id } : { id: row.id, maxConcurrency }),
    ),
  };
}

function toImplicitRoute(deps: ListOperatorRoutesDeps, route: Route, state: { isEnabled: boolean }): OperatorRoute {
  return {
    id: route.id,
    model: route.modelId,
    provider: route.provider,
    base_url: route.baseUrl,
    upstream_model: route.upstreamModel,
    origin: route.origin,
    enabled: state.isEnabled,
    has_credential: route.credential !== undefined,
    priority: route.priority,
    weight: route.weight,
    input_cost_micros: null,
    output_cost_micros: null,
    max_concurrency: null,
    connect_timeout_ms: null,
    first_byte_timeout_ms: null,
    idle_timeout_ms: null,
    reserved_for: [],
    options: {},
    health: toHealth(deps.routing.viewOf({ id: route.id })),
  };
}

function toHealth(view: RouteHealthView): RouteHealth {
  const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  return {
    state: view.state,
    error_rate: Math.round(view.errorRate * 1000) / 1000,
    time_to_first_token_ms: view.timeToFirstTokenMs === undefined ? null : Math.round(view.timeToFirstTokenMs),
    latency_ms: view.latencyMs === undefined ? null : Math.round(view.latencyMs),
    in_flight: view.inFlight,
    cooling_until: iso(view.coolingUntilMs),
    probe_at: iso(view.probeAtMs),
    attempts: view.attempts,
    failures: view.failures,
  };
}
