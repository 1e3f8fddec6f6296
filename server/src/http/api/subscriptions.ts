import type { FastifyInstance } from 'fastify';
import { autoRenewRequestSchema, buySubscriptionRequestSchema } from '../../../../contract/subscriptions.ts';
import { parseWireRequest } from '../../openai-api/parse-request.ts';
import { buySubscription, type BuySubscriptionDeps } from '../../subscriptions/buy-subscription.ts';
import { getAccountSubscription } from '../../subscriptions/get-account-subscription.ts';
import { setAutoRenewal } from '../../subscriptions/set-auto-renewal.ts';
import type { SessionGuard } from '../middleware/session.ts';

export type SubscriptionRouteDeps = BuySubscriptionDeps & { sessions: SessionGuard };

/** The signed-in account's subscription: read it with the plans on sale, buy or extend one, switch auto-renewal. */
export function registerSubscriptionRoutes(app: FastifyInstance, deps: SubscriptionRouteDeps): void {
  app.get('/api/subscription', async (request) =>
    getAccountSubscription(deps, deps.sessions.requireSession(request).userId),
  );

  app.post('/api/subscription', async (request, reply) => {
    const { userId } = deps.sessions.requireSession(request);
    const body = parseWireRequest(buySubscriptionRequestSchema, request.body);
    const purchase = await buySubscription(deps, { userId, request: body });
    return reply.status(purchase.is_new ? 201 : 200).send(purchase);
  });

  app.post('/api/subscription/auto-renew', async (request) => {
    const { userId } = deps.sessions.requireSession(request);
    const body = parseWireRequest(autoRenewRequestSchema, request.body);
    return setAutoRenewal(deps, { userId, isAutoRenewing: body.auto_renew });
  });
}
