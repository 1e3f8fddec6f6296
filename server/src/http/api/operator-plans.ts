import type { FastifyInstance } from 'fastify';
import {
  createSubscriptionPlanRequestSchema,
  updateSubscriptionPlanRequestSchema,
} from '../../../../contract/subscriptions.ts';
import { parseWireRequest } from '../../openai-api/parse-request.ts';
import { createSubscriptionPlan, type PlanDeps } from '../../subscriptions/create-subscription-plan.ts';
import { listSubscriptionPlanViews } from '../../subscriptions/list-subscription-plan-views.ts';
import { renewSubscriptions, type RenewSubscriptionsDeps } from '../../subscriptions/renew-subscriptions.ts';
import { updateSubscriptionPlan } from '../../subscriptions/update-subscription-plan.ts';
import type { SessionGuard } from '../middleware/session.ts';
import { requireOperator } from './operator-guard.ts';

export type OperatorPlanRouteDeps = PlanDeps & RenewSubscriptionsDeps & { sessions: SessionGuard };

/** Subscription plans (list, create, change) and an on-demand renewal pass. */
export function registerOperatorPlanRoutes(app: FastifyInstance, deps: OperatorPlanRouteDeps): void {
  app.get('/api/operator/plans', async (request) => {
    requireOperator(deps.sessions, request);
    return { data: await listSubscriptionPlanViews(deps) };
  });

  app.post('/api/operator/plans', async (request, reply) => {
    requireOperator(deps.sessions, request);
    const body = parseWireRequest(createSubscriptionPlanRequestSchema, request.body);
    return reply.status(201).send(await createSubscriptionPlan(deps, body));
  });

  app.post<{ Params: { id: string } }>('/api/operator/plans/:id', async (request) => {
    requireOperator(deps.sessions, request);
    const body = parseWireRequest(updateSubscriptionPlanRequestSchema, request.body);
    return updateSubscriptionPlan(deps, { planId: request.params.id, request: body });
  });

  app.post('/api/operator/subscriptions/renew', async (request) => {
    requireOperator(deps.sessions, request);
    return renewSubscriptions(deps);
  });
}
