import { buySubscription, type BuySubscriptionDeps } from '../../subscriptions/buy-subscription.ts';
import { getAccountSubscription } from '../../subscriptions/get-account-subscription.ts';
import { setAutoRenewal } from '../../subscriptions/set-auto-renewal.ts';
import type { ApiHandlers } from './endpoint-handler.ts';

export type SubscriptionHandlerDeps = BuySubscriptionDeps;

/** The signed-in account's subscription: read it with the plans on sale, buy or extend one, switch auto-renewal. */
export function createSubscriptionHandlers(
  deps: SubscriptionHandlerDeps,
): Pick<ApiHandlers, 'getSubscription' | 'buySubscription' | 'setAutoRenewal'> {
  return {
    getSubscription: async ({ session }) => getAccountSubscription(deps, session.userId),
    buySubscription: async ({ session, body, reply }) => {
      const purchase = await buySubscription(deps, { userId: session.userId, request: body });
      if (!purchase.is_new) reply.status(200);
      return purchase;
    },
    setAutoRenewal: async ({ session, body }) =>
      setAutoRenewal(deps, { userId: session.userId, isAutoRenewing: body.auto_renew }),
  };
}
