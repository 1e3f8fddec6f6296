import { findRouteCost } from '../../catalog/route-cost.ts';
import type { RouteTable } from '../../catalog/route-table.ts';
import { describeOperatorModel, listOperatorModels } from '../../operator/list-operator-models.ts';
import {
  addModel,
  restoreModel,
  retireModel,
  updateModel,
  type ManageModelsDeps,
} from '../../operator/manage-models.ts';
import { vendorRouteAtListPrice, type RouteCostSource } from '../../operator/model-route-costs.ts';
import type { Routing } from '../../routing/create-routing.ts';
import type { ApiHandlers } from './endpoint-handler.ts';

export type OperatorModelHandlerDeps = Omit<ManageModelsDeps, 'routeCosts'> & {
  routeTable: RouteTable;
  routing: Routing;
};

/**
 * The catalogue for the operator: list with margins, add, change, retire and restore models. Route costs and health
 * come from this node's route table and routing state; a model without a route is costed at its vendor's own API.
 */
export function createOperatorModelHandlers(
  deps: OperatorModelHandlerDeps,
): Pick<ApiHandlers, 'listOperatorModels' | 'createModel' | 'updateModel' | 'retireModel' | 'restoreModel'> {
  const manage: ManageModelsDeps = { ...deps, routeCosts: liveRouteCosts(deps) };
  const view = manage;
  return {
    listOperatorModels: async () => listOperatorModels(view),
    createModel: async ({ body }) => {
      const row = await addModel(manage, body);
      await deps.routeTable.reload();
      return describeOperatorModel(view, row);
    },
    updateModel: async ({ params, body }) => {
      const row = await updateModel(manage, { modelId: params.id, request: body });
      await deps.routeTable.reload();
      return describeOperatorModel(view, row);
    },
    retireModel: async ({ params, body }) => {
      const row = await retireModel(manage, { modelId: params.id, successorId: body.successor ?? null });
      await deps.routeTable.reload();
      return describeOperatorModel(view, row);
    },
    restoreModel: async ({ params }) => {
      const row = await restoreModel(manage, params.id);
      await deps.routeTable.reload();
      return describeOperatorModel(view, row);
    },
  };
}

/** The model's enabled routes on this node, costed at the given list price; healthy unless the breaker says not. */
export function liveRouteCosts(deps: { routeTable: RouteTable; routing: Routing }): RouteCostSource {
  return async (model) => {
    const routes = deps.routeTable.routesFor(model.id).map((route) => {
      const view = deps.routing.viewOf(
        route.maxConcurrency === undefined ? { id: route.id } : { id: route.id, maxConcurrency: route.maxConcurrency },
      );
      return {
        id: route.id,
        provider: route.provider,
        cost: findRouteCost(route, model),
        isHealthy: view.state === 'healthy',
      };
    });
    return routes.length > 0 ? routes : [vendorRouteAtListPrice(model)];
  };
}
