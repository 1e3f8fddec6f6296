import { apiEndpoints } from '../../../../contract/api-endpoints.ts';
import type {
  MarkTopUpPaidRequest,
  OperatorPayment,
  OperatorPaymentList,
  OperatorPaymentQuery,
  PaymentWebhookList,
  RefundTopUpRequest,
} from '../../../../contract/payments.ts';
import type { RequestOptions } from '../../api/api-client.ts';
import { callEndpoint } from '../../api/call-endpoint.ts';

/** The operator's payment calls (`/api/operator/payments…`, docs/payments.md). */
export const listPayments = (query: OperatorPaymentQuery, options: RequestOptions = {}): Promise<OperatorPaymentList> =>
  callEndpoint(apiEndpoints.listOperatorPayments, { query }, options);

export const getPayment = (id: string, options: RequestOptions = {}): Promise<OperatorPayment> =>
  callEndpoint(apiEndpoints.getOperatorPayment, { params: { id } }, options);

export const refundPayment = (id: string, request: RefundTopUpRequest): Promise<OperatorPayment> =>
  callEndpoint(apiEndpoints.refundOperatorPayment, { params: { id }, body: request });

export const markPaymentPaid = (id: string, request: MarkTopUpPaidRequest): Promise<OperatorPayment> =>
  callEndpoint(apiEndpoints.markOperatorPaymentPaid, { params: { id }, body: request });

export const listPaymentWebhooks = (options: RequestOptions = {}): Promise<PaymentWebhookList> =>
  callEndpoint(apiEndpoints.listPaymentWebhooks, {}, options);
