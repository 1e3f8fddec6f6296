import type { Database } from '../../db/database.ts';
import { listPriceHistory } from '../../operator/list-price-history.ts';
import { setModelPrice, type SetModelPriceDeps } from '../../operator/set-model-price.ts';
import type { RouteTable } from '../../catalog/route-table.ts';
import type { Routing } from '../../routing/create-routing.ts';
import type { ApiHandlers } from './endpoint-handler.ts';
import { liveRouteCosts } from './operator-models.ts';

export type OperatorPriceHandlerDeps = Omit<SetModelPriceDeps, 'routeCosts'> & {
  db: Database;
  routeTable: RouteTable;
  routing: Routing;
};

/** The live price list: set a model's price (effective now, recorded in its history) and read the history. */
export function createOperatorPriceHandlers(
  deps: OperatorPriceHandlerDeps,
): Pick<ApiHandlers, 'setModelPrice' | 'listPriceHistory'> {
  return {
    setModelPrice: async ({ params, body }) =>
      setModelPrice({ ...deps, routeCosts: liveRouteCosts(deps) }, { modelId: params.id, request: body }),
    listPriceHistory: async ({ params }) => listPriceHistory(deps, params.id),
  };
}
