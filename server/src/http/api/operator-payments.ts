import type { IdGenerator } from '../../lib/ids.ts';
import { getOperatorPayment, listOperatorPayments } from '../../payments/list-operator-payments.ts';
import type { PaymentProviders } from '../../payments/payment-providers.ts';
import { markTopUpPaid } from '../../payments/mark-top-up-paid.ts';
import { refundTopUpOrder, type RefundTopUpDeps } from '../../payments/refund-top-up-order.ts';
import type { ApiHandlers } from './endpoint-handler.ts';

export type OperatorPaymentHandlerDeps = RefundTopUpDeps & {
  paymentProviders: Pick<PaymentProviders, 'list'>;
  ids: IdGenerator;
  /** `<PUBLIC_BASE_URL>/webhooks`: each provider notifies `<webhookBaseUrl>/<provider id>`. */
  webhookBaseUrl: string;
};

/**
 * The operator's payments: list with filters, one with its history, refund through the provider, mark paid by hand,
 * and the webhook URLs to register.
 */
export function createOperatorPaymentHandlers(
  deps: OperatorPaymentHandlerDeps,
): Pick<
  ApiHandlers,
  | 'listOperatorPayments'
  | 'getOperatorPayment'
  | 'refundOperatorPayment'
  | 'markOperatorPaymentPaid'
  | 'listPaymentWebhooks'
> {
  return {
    listOperatorPayments: async ({ query }) => listOperatorPayments(deps, query),
    getOperatorPayment: async ({ params }) => getOperatorPayment(deps, params.id),
    refundOperatorPayment: async ({ params, body }) =>
      refundTopUpOrder(deps, { orderId: params.id, request: body, newKey: () => deps.ids.newId('rfd_') }),
    markOperatorPaymentPaid: async ({ session, params, body }) =>
      markTopUpPaid(deps, { orderId: params.id, operatorUserId: session.userId, reason: body.reason }),
    listPaymentWebhooks: async () => ({
      data: deps.paymentProviders.list
        .filter((provider) => provider.webhooks !== 'none')
        .map((provider) => ({
          provider: provider.id,
          url: `${deps.webhookBaseUrl}/${provider.id}`,
          methods: [...provider.methods],
          is_sandbox: provider.isSandbox,
        })),
    }),
  };
}
