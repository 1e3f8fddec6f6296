import type { FastifyInstance } from 'fastify';
import { topUpListQuerySchema, topUpRequestSchema } from '../../../../contract/payments.ts';
import { parseWireRequest } from '../../openai-api/parse-request.ts';
import type { CreateTopUpOrderDeps } from '../../payments/create-top-up-order.ts';
import { getTopUpOrder, listMyTopUpOrders, type GetTopUpOrderDeps } from '../../payments/get-top-up-order.ts';
import { quoteTopUp, startTopUp } from '../../payments/start-top-up.ts';
import type { SessionGuard } from '../middleware/session.ts';

export type TopUpRouteDeps = CreateTopUpOrderDeps & Omit<GetTopUpOrderDeps, 'onSyncError'> & { sessions: SessionGuard };

/** The signed-in account's top-ups: quote, create (→ the provider's page), list, and one order (the return page). */
export function registerTopUpRoutes(app: FastifyInstance, deps: TopUpRouteDeps): void {
  app.post('/api/top-ups/quote', async (request) => {
    deps.sessions.requireSession(request);
    return quoteTopUp(deps, parseWireRequest(topUpRequestSchema, request.body));
  });

  app.post('/api/top-ups', async (request, reply) => {
    const { userId } = deps.sessions.requireSession(request);
    const created = await startTopUp(deps, { userId, request: parseWireRequest(topUpRequestSchema, request.body) });
    return reply.status(201).send(created);
  });

  app.get('/api/top-ups', async (request) => {
    const { userId } = deps.sessions.requireSession(request);
    const query = parseWireRequest(topUpListQuerySchema, request.query);
    return listMyTopUpOrders(deps, { userId, limit: query.limit, before: query.before });
  });

  app.get<{ Params: { id: string } }>('/api/top-ups/:id', async (request) => {
    const { userId } = deps.sessions.requireSession(request);
    const onSyncError = (orderId: string, error: unknown) =>
      request.log.warn({ err: error, orderId }, 'checking a top-up with its provider failed');
    return getTopUpOrder({ ...deps, onSyncError }, { userId, orderId: request.params.id });
  });
}
