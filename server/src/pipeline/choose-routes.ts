import type { CatalogModel } from '../catalog/price-list.ts';
import type { Route, RouteTable } from '../catalog/route-table.ts';
import { UpstreamError } from '../errors/upstream-error.ts';

/** The routes to try for a model, best first. */
export function chooseRoutes(deps: { routeTable: RouteTable }, model: CatalogModel): readonly Route[] {
  const routes = deps.routeTable.routesFor(model.id);
  if (routes.length === 0) {
    throw new UpstreamError(`No upstream is available for the model \`${model.id}\` right now.`, {
      code: 'no_route_available',
    });
  }
  return routes;
}
