import type { FastifyInstance } from 'fastify';
import {
  accountModelPriceRequestSchema,
  accountTermsRequestSchema,
  balanceAdjustmentRequestSchema,
  operatorUserQuerySchema,
  userStatusRequestSchema,
} from '../../../../contract/operator.ts';
import { parseWireRequest } from '../../openai-api/parse-request.ts';
import { adjustBalance, type AdjustBalanceDeps } from '../../operator/adjust-balance.ts';
import { getOperatorUser } from '../../operator/get-operator-user.ts';
import { listOperatorUsers } from '../../operator/list-operator-users.ts';
import { removeAccountModelPrice, setAccountModelPrice } from '../../operator/set-account-model-price.ts';
import { setAccountTerms, type AccountTermsWriteDeps } from '../../operator/set-account-terms.ts';
import { setUserStatus, type SetUserStatusDeps } from '../../operator/set-user-status.ts';
import type { SessionGuard } from '../middleware/session.ts';
import { requireOperator } from './operator-guard.ts';

export type OperatorUserRouteDeps = AdjustBalanceDeps &
  SetUserStatusDeps &
  AccountTermsWriteDeps & { sessions: SessionGuard };

type UserParams = { Params: { id: string } };

/** The operator's view of accounts: search, block, balance adjustments, contract terms and account prices. */
export function registerOperatorUserRoutes(app: FastifyInstance, deps: OperatorUserRouteDeps): void {
  app.get('/api/operator/users', async (request) => {
    requireOperator(deps.sessions, request);
    return listOperatorUsers(deps, parseWireRequest(operatorUserQuerySchema, request.query));
  });

  app.get<UserParams>('/api/operator/users/:id', async (request) => {
    requireOperator(deps.sessions, request);
    return getOperatorUser(deps, request.params.id);
  });

  app.post<UserParams>('/api/operator/users/:id/status', async (request) => {
    const operator = requireOperator(deps.sessions, request);
    const { status } = parseWireRequest(userStatusRequestSchema, request.body);
    return setUserStatus(deps, { operatorUserId: operator.userId, userId: request.params.id, status });
  });

  app.post<UserParams>('/api/operator/users/:id/adjustments', async (request, reply) => {
    requireOperator(deps.sessions, request);
    const body = parseWireRequest(balanceAdjustmentRequestSchema, request.body);
    const adjustment = await adjustBalance(deps, { userId: request.params.id, request: body });
    return reply.status(adjustment.is_new ? 201 : 200).send(adjustment);
  });

  app.post<UserParams>('/api/operator/users/:id/terms', async (request) => {
    requireOperator(deps.sessions, request);
    const body = parseWireRequest(accountTermsRequestSchema, request.body);
    return setAccountTerms(deps, { userId: request.params.id, request: body });
  });

  app.post<UserParams>('/api/operator/users/:id/model-prices', async (request) => {
    requireOperator(deps.sessions, request);
    const body = parseWireRequest(accountModelPriceRequestSchema, request.body);
    return setAccountModelPrice(deps, { userId: request.params.id, request: body });
  });

  app.delete<{ Params: { id: string; modelId: string } }>(
    '/api/operator/users/:id/model-prices/:modelId',
    async (request) => {
      requireOperator(deps.sessions, request);
      return removeAccountModelPrice(deps, { userId: request.params.id, modelId: request.params.modelId });
    },
  );
}
