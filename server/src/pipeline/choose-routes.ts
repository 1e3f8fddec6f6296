import type { CatalogModel } from '../catalog/price-list.ts';
import type { Route, RouteTable } from '../catalog/route-table.ts';
import { modelNotFoundFor } from '../errors/model-not-found-error.ts';
import { UpstreamError } from '../errors/upstream-error.ts';
import { isAllowedFor } from '../routing/choose-route-order.ts';

/**
 * The routes to try for a model, best first. A model whose only routes are reserved for other accounts does not
 * exist for this one: a 404, as `GET /v1/models/{id}` answers it (docs/routing.md); a model with no route at all is
 * the operator's gap, a 502.
 */
export function chooseRoutes(
  deps: { routeTable: RouteTable },
  input: { model: CatalogModel; userId: string },
): readonly Route[] {
  const { model } = input;
  const routes = deps.routeTable.routesFor(model.id);
  if (routes.length === 0) {
    throw new UpstreamError(`No upstream is available for the model \`${model.id}\` right now.`, {
      code: 'no_route_available',
    });
  }
  if (!routes.some((route) => isAllowedFor(route, input.userId))) throw modelNotFoundFor(model.id);
  return routes;
}
