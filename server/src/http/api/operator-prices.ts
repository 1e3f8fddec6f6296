import type { FastifyInstance } from 'fastify';
import { modelPriceRequestSchema } from '../../../../contract/operator.ts';
import type { Database } from '../../db/database.ts';
import { parseWireRequest } from '../../openai-api/parse-request.ts';
import { listPriceHistory } from '../../operator/list-price-history.ts';
import { setModelPrice, type SetModelPriceDeps } from '../../operator/set-model-price.ts';
import type { SessionGuard } from '../middleware/session.ts';
import { requireOperator } from './operator-guard.ts';

export type OperatorPriceRouteDeps = SetModelPriceDeps & { db: Database; sessions: SessionGuard };

type ModelParams = { Params: { id: string } };

/** The live price list: set a model's price (effective now, recorded in its history) and read the history. */
export function registerOperatorPriceRoutes(app: FastifyInstance, deps: OperatorPriceRouteDeps): void {
  app.post<ModelParams>('/api/operator/models/:id/price', async (request) => {
    requireOperator(deps.sessions, request);
    const body = parseWireRequest(modelPriceRequestSchema, request.body);
    return setModelPrice(deps, { modelId: request.params.id, request: body });
  });

  app.get<ModelParams>('/api/operator/models/:id/prices', async (request) => {
    requireOperator(deps.sessions, request);
    return listPriceHistory(deps, request.params.id);
  });
}
