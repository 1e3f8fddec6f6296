import type { CreateTopUpOrderDeps } from '../../payments/create-top-up-order.ts';
import { getTopUpOrder, listMyTopUpOrders, type GetTopUpOrderDeps } from '../../payments/get-top-up-order.ts';
import { paymentMethodIds } from '../../payments/payment-providers.ts';
import { sendSandboxTransfer, type SendSandboxTransferDeps } from '../../payments/send-sandbox-transfer.ts';
import { quoteTopUp, startTopUp } from '../../payments/start-top-up.ts';
import type { ApiHandlers } from './endpoint-handler.ts';

export type TopUpHandlerDeps = CreateTopUpOrderDeps & Omit<GetTopUpOrderDeps, 'onSyncError'> & SendSandboxTransferDeps;

/** The signed-in account's top-ups: quote, create (→ the provider's page), list, and one order (the return page). */
export function createTopUpHandlers(
  deps: TopUpHandlerDeps,
): Pick<
  ApiHandlers,
  'quoteTopUp' | 'createTopUp' | 'listTopUpMethods' | 'listTopUps' | 'getTopUp' | 'sendSandboxTransfer'
> {
  return {
    listTopUpMethods: async () => ({
      data: paymentMethodIds.flatMap((method) => {
        const provider = deps.paymentProviders.forMethod(method);
        return provider ? [{ method, provider: provider.id, is_sandbox: provider.isSandbox }] : [];
      }),
    }),
    quoteTopUp: async ({ body }) => quoteTopUp(deps, body),
    createTopUp: async ({ session, body }) => startTopUp(deps, { userId: session.userId, request: body }),
    listTopUps: async ({ session, query }) =>
      listMyTopUpOrders(deps, { userId: session.userId, limit: query.limit, before: query.before }),
    getTopUp: async ({ request, session, params }) => {
      const onSyncError = (orderId: string, error: unknown) =>
        request.log.warn({ err: error, orderId }, 'checking a top-up with its provider failed');
      return getTopUpOrder({ ...deps, onSyncError }, { userId: session.userId, orderId: params.id });
    },
    sendSandboxTransfer: async ({ session, params, body }) =>
      sendSandboxTransfer(deps, { userId: session.userId, orderId: params.id, request: body }),
  };
}
