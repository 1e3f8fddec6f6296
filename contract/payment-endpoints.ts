import {
  createdTopUpSchema,
  markTopUpPaidRequestSchema,
  operatorPaymentListSchema,
  operatorPaymentQuerySchema,
  operatorPaymentSchema,
  paymentWebhookListSchema,
  refundTopUpRequestSchema,
  sandboxTransferRequestSchema,
  sandboxTransferSchema,
  topUpListQuerySchema,
  topUpMethodListSchema,
  topUpOrderListSchema,
  topUpOrderSchema,
  topUpQuoteSchema,
  topUpRequestSchema,
} from './payments.ts';
import { operatorErrors, sessionErrors, type ApiEndpoint } from './api-endpoint.ts';

const topUpRequest = { name: 'TopUpRequest', schema: topUpRequestSchema };
const operatorPayment = { name: 'OperatorPayment', schema: operatorPaymentSchema };
const quoteErrors = {
  '400':
    'Unknown or unavailable method (`payment_method_unavailable`), wrong currency, or under the minimum (`below_minimum`)',
  '503': 'No current exchange rate (`exchange_rate_unavailable`); nothing was charged',
};

/** The top-up endpoints of the account API and the operator's payments (docs/payments.md). */
export const paymentEndpoints = {
  quoteTopUp: {
    method: 'post',
    path: '/api/top-ups/quote',
    summary: 'What a top-up would cost and credit: the locked rate, the USD credited, the minimum',
    auth: 'session',
    body: topUpRequest,
    response: { status: 200, description: 'The quote', json: { name: 'TopUpQuote', schema: topUpQuoteSchema } },
    errors: { ...sessionErrors, ...quoteErrors },
  },
  createTopUp: {
    method: 'post',
    path: '/api/top-ups',
    summary: 'Create a top-up order and get the provider’s payment page (`order.confirmation_url`)',
    auth: 'session',
    body: topUpRequest,
    response: {
      status: 201,
      description: 'The order (pending) and its locked quote',
      json: { name: 'CreatedTopUp', schema: createdTopUpSchema },
    },
    errors: {
      ...sessionErrors,
      ...quoteErrors,
      '502': 'The payment provider could not be reached (`payment_provider_unavailable`); nothing was charged',
    },
  },
  listTopUpMethods: {
    method: 'get',
    path: '/api/top-ups/methods',
    summary: 'The payment methods the operator has enabled, each with its provider (the top-up panel lists these)',
    auth: 'session',
    response: {
      status: 200,
      description: 'Methods',
      json: { name: 'TopUpMethodList', schema: topUpMethodListSchema },
    },
    errors: sessionErrors,
  },
  listTopUps: {
    method: 'get',
    path: '/api/top-ups',
    summary: 'The account’s top-up orders, newest first',
    auth: 'session',
    query: topUpListQuerySchema,
    response: { status: 200, description: 'Orders', json: { name: 'TopUpOrderList', schema: topUpOrderListSchema } },
    errors: sessionErrors,
  },
  getTopUp: {
    method: 'get',
    path: '/api/top-ups/{id}',
    summary: 'One top-up order; a waiting one is checked with its provider first (the return page polls this)',
    auth: 'session',
    response: { status: 200, description: 'The order', json: { name: 'TopUpOrder', schema: topUpOrderSchema } },
    errors: { ...sessionErrors, '404': 'No such order on this account' },
  },
  sendSandboxTransfer: {
    method: 'post',
    path: '/api/top-ups/{id}/sandbox-transfer',
    summary: 'Payment sandbox mode only: the chain or processor simulator pays a USDT order (or confirms a transfer)',
    auth: 'session',
    body: { name: 'SandboxTransferRequest', schema: sandboxTransferRequestSchema },
    response: {
      status: 200,
      description: 'The simulated transfer',
      json: { name: 'SandboxTransfer', schema: sandboxTransferSchema },
    },
    errors: {
      ...sessionErrors,
      '400': 'A `confirm` without `transaction_id`',
      '404': 'No such USDT order on this account, or the gateway is not in payment sandbox mode',
      '409': 'The action does not apply to the order’s way (a processor has no look-alikes or confirmations)',
      '502': 'The simulator refused the transfer',
    },
  },
  listOperatorPayments: {
    method: 'get',
    path: '/api/operator/payments',
    summary: 'Top-up payments, newest first, filtered by provider, method, status, user and dates',
    auth: 'operator',
    query: operatorPaymentQuerySchema,
    response: {
      status: 200,
      description: 'Payments',
      json: { name: 'OperatorPaymentList', schema: operatorPaymentListSchema },
    },
    errors: { ...operatorErrors, '400': 'A malformed filter' },
  },
  getOperatorPayment: {
    method: 'get',
    path: '/api/operator/payments/{id}',
    summary: 'One payment with every transition of its order',
    auth: 'operator',
    response: { status: 200, description: 'The payment', json: operatorPayment },
    errors: { ...operatorErrors, '404': 'No such order' },
  },
  refundOperatorPayment: {
    method: 'post',
    path: '/api/operator/payments/{id}/refund',
    summary: 'Refund (part of) a paid top-up through the provider; the balance is debited by a reversing entry',
    auth: 'operator',
    body: { name: 'RefundTopUpRequest', schema: refundTopUpRequestSchema },
    response: { status: 200, description: 'The payment after the refund', json: operatorPayment },
    errors: {
      ...operatorErrors,
      '400': 'More than can still be refunded (`exceeds_refundable`)',
      '404': 'No such order',
      '409': 'Not a paid top-up (`not_refundable`)',
      '502': 'The provider refused or could not be reached; nothing was refunded',
    },
  },
  markOperatorPaymentPaid: {
    method: 'post',
    path: '/api/operator/payments/{id}/mark-paid',
    summary: 'Credit an order by hand for a payment found in the provider’s records; the reason is mandatory',
    auth: 'operator',
    body: { name: 'MarkTopUpPaidRequest', schema: markTopUpPaidRequestSchema },
    response: { status: 200, description: 'The payment, credited', json: operatorPayment },
    errors: { ...operatorErrors, '400': 'No reason given', '404': 'No such order', '409': 'Already credited' },
  },
  listPaymentWebhooks: {
    method: 'get',
    path: '/api/operator/payment-webhooks',
    summary: 'The webhook URL to register with each running payment provider',
    auth: 'operator',
    response: {
      status: 200,
      description: 'One URL per provider',
      json: { name: 'PaymentWebhookList', schema: paymentWebhookListSchema },
    },
    errors: operatorErrors,
  },
} as const satisfies Record<string, ApiEndpoint>;
