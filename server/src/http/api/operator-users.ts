import { adjustBalance, type AdjustBalanceDeps } from '../../operator/adjust-balance.ts';
import { getOperatorUser } from '../../operator/get-operator-user.ts';
import { listOperatorUsers } from '../../operator/list-operator-users.ts';
import { removeAccountModelPrice, setAccountModelPrice } from '../../operator/set-account-model-price.ts';
import { setAccountTerms, type AccountTermsWriteDeps } from '../../operator/set-account-terms.ts';
import { setUserStatus, type SetUserStatusDeps } from '../../operator/set-user-status.ts';
import type { RouteTable } from '../../catalog/route-table.ts';
import type { Routing } from '../../routing/create-routing.ts';
import type { ApiHandlers } from './endpoint-handler.ts';
import { liveRouteCosts } from './operator-models.ts';

export type OperatorUserHandlerDeps = AdjustBalanceDeps &
  SetUserStatusDeps &
  Omit<AccountTermsWriteDeps, 'routeCosts'> & { routeTable: RouteTable; routing: Routing };

type OperatorUserHandlers = Pick<
  ApiHandlers,
  | 'listOperatorUsers'
  | 'getOperatorUser'
  | 'setUserStatus'
  | 'adjustBalance'
  | 'setAccountTerms'
  | 'setAccountModelPrice'
  | 'removeAccountModelPrice'
>;

/** The operator's view of accounts: search, block, balance adjustments, contract terms and account prices. */
export function createOperatorUserHandlers(deps: OperatorUserHandlerDeps): OperatorUserHandlers {
  const termsDeps = { ...deps, routeCosts: liveRouteCosts(deps) };
  return {
    listOperatorUsers: async ({ query }) => listOperatorUsers(deps, query),
    getOperatorUser: async ({ params }) => getOperatorUser(deps, params.id),
    setUserStatus: async ({ session, params, body }) =>
      setUserStatus(deps, { operatorUserId: session.userId, userId: params.id, status: body.status }),
    adjustBalance: async ({ params, body, reply }) => {
      const adjustment = await adjustBalance(deps, { userId: params.id, request: body });
      if (!adjustment.is_new) reply.status(200);
      return adjustment;
    },
    setAccountTerms: async ({ params, body }) => setAccountTerms(termsDeps, { userId: params.id, request: body }),
    setAccountModelPrice: async ({ params, body }) =>
      setAccountModelPrice(termsDeps, { userId: params.id, request: body }),
    removeAccountModelPrice: async ({ params }) =>
      removeAccountModelPrice(termsDeps, { userId: params.id, modelId: params.modelId }),
  };
}
