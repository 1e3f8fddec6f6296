import type { CreateRouteRequest, UpdateRouteRequest } from '../../../../contract/operator-routes.ts';
import { addRoute, type AddRouteDeps } from '../../catalog/add-route.ts';
import type { RouteTable } from '../../catalog/route-table.ts';
import type { RouteSettingsInput } from '../../catalog/route-settings.ts';
import { isImplicitRouteId, switchImplicitRoute } from '../../catalog/switch-implicit-route.ts';
import { updateRoute } from '../../catalog/update-route.ts';
import { NotFoundError } from '../../errors/not-found-error.ts';
import type { Routing } from '../../routing/create-routing.ts';
import { findOperatorRoute, listOperatorRoutes } from '../../routing/list-operator-routes.ts';
import type { ApiHandlers } from './endpoint-handler.ts';

export type OperatorRouteHandlerDeps = AddRouteDeps & {
  routeTable: RouteTable;
  routing: Routing;
  allowPrivateUpstreams: boolean;
};

/**
 * Upstream routes for the operator: list with live health, add, change, enable or disable (routes from the
 * configuration or the sandbox: only enable or disable). Credentials go in, never out. Every change reloads this
 * node's route table at once; other nodes follow within a second (cache versions).
 */
export function createOperatorRouteHandlers(
  deps: OperatorRouteHandlerDeps,
): Pick<ApiHandlers, 'listRoutes' | 'createRoute' | 'updateRoute'> {
  return {
    listRoutes: async () => listOperatorRoutes(deps),
    createRoute: async ({ body }) => {
      const { id } = await addRoute(deps, {
        ...toSettings(body),
        modelId: body.model,
        provider: body.provider,
        baseUrl: body.base_url,
        credential: body.api_key,
        upstreamModel: body.upstream_model,
        allowPrivateUpstreams: deps.allowPrivateUpstreams,
      });
      await deps.routeTable.reload();
      return getOperatorRoute(deps, id);
    },
    updateRoute: async ({ params, body }) => {
      await changeRoute(deps, { routeId: params.id, body });
      await deps.routeTable.reload();
      return getOperatorRoute(deps, params.id);
    },
  };
}

async function changeRoute(deps: OperatorRouteHandlerDeps, input: { routeId: string; body: UpdateRouteRequest }) {
  const { routeId, body } = input;
  if (isImplicitRouteId(routeId)) {
    const { enabled, ...others } = body;
    await switchImplicitRoute(deps, { routeId, isEnabled: enabled, otherFields: Object.keys(others) });
    return;
  }
  await updateRoute(deps, {
    routeId,
    allowPrivateUpstreams: deps.allowPrivateUpstreams,
    update: {
      ...toSettings(body),
      ...(body.base_url === undefined ? {} : { baseUrl: body.base_url }),
      ...(body.api_key === undefined ? {} : { credential: body.api_key }),
      ...(body.upstream_model === undefined ? {} : { upstreamModel: body.upstream_model }),
      ...(body.enabled === undefined ? {} : { isEnabled: body.enabled }),
    },
  });
}

async function getOperatorRoute(deps: OperatorRouteHandlerDeps, routeId: string) {
  const route = await findOperatorRoute(deps, routeId);
  if (!route) throw new NotFoundError(`No route has the id "${routeId}".`, { param: 'id' });
  return route;
}

function toSettings(body: CreateRouteRequest | UpdateRouteRequest): RouteSettingsInput {
  const settings: RouteSettingsInput = {};
  if (body.priority !== undefined) settings.priority = body.priority;
  if (body.weight !== undefined) settings.weight = body.weight;
  if (body.input_cost_micros !== undefined) settings.inputCostMicros = body.input_cost_micros;
  if (body.output_cost_micros !== undefined) settings.outputCostMicros = body.output_cost_micros;
  if (body.cached_input_cost_micros !== undefined) settings.cachedInputCostMicros = body.cached_input_cost_micros;
  if (body.per_request_cost_micros !== undefined) settings.perRequestCostMicros = body.per_request_cost_micros;
  if (body.max_concurrency !== undefined) settings.maxConcurrency = body.max_concurrency;
  if (body.connect_timeout_ms !== undefined) settings.connectTimeoutMs = body.connect_timeout_ms;
  if (body.first_byte_timeout_ms !== undefined) settings.firstByteTimeoutMs = body.first_byte_timeout_ms;
  if (body.idle_timeout_ms !== undefined) settings.idleTimeoutMs = body.idle_timeout_ms;
  if (body.reserved_for !== undefined) settings.reservedForUserIds = body.reserved_for;
  if (body.options !== undefined) settings.options = body.options;
  return settings;
}
