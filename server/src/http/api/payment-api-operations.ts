import {
  createdTopUpSchema,
  markTopUpPaidRequestSchema,
  operatorPaymentListSchema,
  operatorPaymentQuerySchema,
  operatorPaymentSchema,
  refundTopUpRequestSchema,
  topUpListQuerySchema,
  topUpOrderListSchema,
  topUpOrderSchema,
  topUpQuoteSchema,
  topUpRequestSchema,
} from '../../../../contract/payments.ts';
import type { AccountApiOperation } from './account-api-operations.ts';

const sessionErrors = {
  '401': 'Not signed in, or the session ended',
  '403': 'Missing `x-csrf-token`, or the account is blocked',
};
const operatorErrors = {
  '401': 'Not signed in, or the session ended',
  '403': 'Not an operator (`operator_only`), missing `x-csrf-token`, or the account is blocked',
};
const topUpRequest = { name: 'TopUpRequest', schema: topUpRequestSchema };
const operatorPayment = { name: 'OperatorPayment', schema: operatorPaymentSchema };
const quoteErrors = {
  '400':
    'Unknown or unavailable method (`payment_method_unavailable`), wrong currency, or under the minimum (`below_minimum`)',
  '503': 'No current exchange rate (`exchange_rate_unavailable`); nothing was charged',
};

/** The top-up endpoints of the account API (docs/payments.md). */
export const topUpApiOperations: readonly AccountApiOperation[] = [
  {
    method: 'post',
    path: '/api/top-ups/quote',
    operationId: 'quoteTopUp',
    summary: 'What a top-up would cost and credit: the locked rate, the USD credited, the minimum',
    auth: 'session',
    body: topUpRequest,
    response: { status: '200', description: 'The quote', json: { name: 'TopUpQuote', schema: topUpQuoteSchema } },
    errors: { ...sessionErrors, ...quoteErrors },
  },
  {
    method: 'post',
    path: '/api/top-ups',
    operationId: 'createTopUp',
    summary: 'Create a top-up order and get the provider’s payment page (`order.confirmation_url`)',
    auth: 'session',
    body: topUpRequest,
    response: {
      status: '201',
      description: 'The order (pending) and its locked quote',
      json: { name: 'CreatedTopUp', schema: createdTopUpSchema },
    },
    errors: {
      ...sessionErrors,
      ...quoteErrors,
      '502': 'The payment provider could not be reached (`payment_provider_unavailable`); nothing was charged',
    },
  },
  {
    method: 'get',
    path: '/api/top-ups',
    operationId: 'listTopUps',
    summary: 'The account’s top-up orders, newest first',
    auth: 'session',
    query: topUpListQuerySchema,
    response: { status: '200', description: 'Orders', json: { name: 'TopUpOrderList', schema: topUpOrderListSchema } },
    errors: sessionErrors,
  },
  {
    method: 'get',
    path: '/api/top-ups/{id}',
    operationId: 'getTopUp',
    summary: 'One top-up order; a waiting one is checked with its provider first (the return page polls this)',
    auth: 'session',
    pathParameters: ['id'],
    response: { status: '200', description: 'The order', json: { name: 'TopUpOrder', schema: topUpOrderSchema } },
    errors: { ...sessionErrors, '404': 'No such order on this account' },
  },
];

/** The operator's payment endpoints. */
export const operatorPaymentApiOperations: readonly AccountApiOperation[] = [
  {
    method: 'get',
    path: '/api/operator/payments',
    operationId: 'listOperatorPayments',
    summary: 'Top-up payments, newest first, filtered by provider, method, status, user and dates',
    auth: 'session',
    query: operatorPaymentQuerySchema,
    response: {
      status: '200',
      description: 'Payments',
      json: { name: 'OperatorPaymentList', schema: operatorPaymentListSchema },
    },
    errors: { ...operatorErrors, '400': 'A malformed filter' },
  },
  {
    method: 'get',
    path: '/api/operator/payments/{id}',
    operationId: 'getOperatorPayment',
    summary: 'One payment with every transition of its order',
    auth: 'session',
    pathParameters: ['id'],
    response: { status: '200', description: 'The payment', json: operatorPayment },
    errors: { ...operatorErrors, '404': 'No such order' },
  },
  {
    method: 'post',
    path: '/api/operator/payments/{id}/refund',
    operationId: 'refundOperatorPayment',
    summary: 'Refund (part of) a paid top-up through the provider; the balance is debited by a reversing entry',
    auth: 'session',
    pathParameters: ['id'],
    body: { name: 'RefundTopUpRequest', schema: refundTopUpRequestSchema },
    response: { status: '200', description: 'The payment after the refund', json: operatorPayment },
    errors: {
      ...operatorErrors,
      '400': 'More than can still be refunded (`exceeds_refundable`)',
      '404': 'No such order',
      '409': 'Not a paid top-up (`not_refundable`)',
      '502': 'The provider refused or could not be reached; nothing was refunded',
    },
  },
  {
    method: 'post',
    path: '/api/operator/payments/{id}/mark-paid',
    operationId: 'markOperatorPaymentPaid',
    summary: 'Credit an order by hand for a payment found in the provider’s records; the reason is mandatory',
    auth: 'session',
    pathParameters: ['id'],
    body: { name: 'MarkTopUpPaidRequest', schema: markTopUpPaidRequestSchema },
    response: { status: '200', description: 'The payment, credited', json: operatorPayment },
    errors: { ...operatorErrors, '400': 'No reason given', '404': 'No such order', '409': 'Already credited' },
  },
];
