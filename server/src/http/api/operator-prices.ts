import type { Database } from '../../db/database.ts';
import { listPriceHistory } from '../../operator/list-price-history.ts';
import { setModelPrice, type SetModelPriceDeps } from '../../operator/set-model-price.ts';
import type { ApiHandlers } from './endpoint-handler.ts';

export type OperatorPriceHandlerDeps = SetModelPriceDeps & { db: Database };

/** The live price list: set a model's price (effective now, recorded in its history) and read the history. */
export function createOperatorPriceHandlers(
  deps: OperatorPriceHandlerDeps,
): Pick<ApiHandlers, 'setModelPrice' | 'listPriceHistory'> {
  return {
    setModelPrice: async ({ params, body }) => setModelPrice(deps, { modelId: params.id, request: body }),
    listPriceHistory: async ({ params }) => listPriceHistory(deps, params.id),
  };
}
