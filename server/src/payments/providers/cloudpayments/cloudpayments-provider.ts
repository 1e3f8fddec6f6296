import type { z } from 'zod';
import type { Clock } from '../../../lib/clock.ts';
import type { PaymentHttp, PaymentProvider, ProviderPayment, WebhookReply } from '../../payment-provider.ts';
import { basicAuthorization, callProviderApi } from '../shared/call-provider-api.ts';
import { formatMinorUnits, parseNumberAmount } from '../shared/minor-units.ts';
import { PaymentProviderError } from '../shared/payment-provider-error.ts';
import type { CloudPaymentsTransaction } from './cloudpayments-api.ts';
import {
  cloudPaymentsEnvelopeSchema,
  cloudPaymentsOrderSchema,
  cloudPaymentsRefundSchema,
  cloudPaymentsTransactionSchema,
} from './cloudpayments-api.ts';
import { convertCloudPaymentsNotification, verifyContentHmac } from './convert-cloudpayments-notification.ts';

export type CloudPaymentsProviderConfig = {
  publicId: string;
  apiSecret: string;
  /** `https://api.cloudpayments.ru`, or a simulator's URL. */
  apiBaseUrl: string;
  isSandbox: boolean;
  http: PaymentHttp;
  clock: Clock;
};

const retryDelaysMs = [1_000, 3_000];

/** Transaction statuses: Completed is paid; Declined and Cancelled are final failures; the rest are still open. */
function convertTransaction(transaction: CloudPaymentsTransaction, invoiceId: string): ProviderPayment | undefined {
  const minorUnits = parseNumberAmount(transaction.Amount);
  if (minorUnits === undefined || transaction.Currency !== 'RUB') return undefined;
  const status =
    transaction.Status === 'Completed'
      ? 'succeeded'
      : ['Declined', 'Cancelled'].includes(transaction.Status)
        ? 'canceled'
        : 'pending';
  return {
    providerPaymentId: invoiceId,
    orderId: transaction.InvoiceId ?? undefined,
    status,
    amount: { currency: 'RUB', minorUnits },
    // The transaction model carries no refunded total; refunds reach the gateway as Refund notifications.
    refundedMinorUnits: 0,
    isTest: transaction.TestMode,
    cancellationReason: status === 'canceled' ? (transaction.Reason ?? undefined) : undefined,
  };
}

/**
 * The CloudPayments client: RUB by card on CloudPayments' hosted order page. Our payment id is the InvoiceId (our
 * order id), because the find API looks payments up by it. @see https://developers.cloudpayments.ru/#api
 */
export function createCloudPaymentsProvider(config: CloudPaymentsProviderConfig): PaymentProvider {
  const baseUrl = config.apiBaseUrl.replace(/\/+$/, '');
  const fail = (detail: string, httpStatus?: number) =>
    new PaymentProviderError({ providerId: 'cloudpayments', httpStatus, isRetryable: false, detail });

  /** One API call: POST JSON, unwrap `{Success, Message, Model}`; `X-Request-ID` makes a repeat the same operation. */
  async function callApi<T>(path: string, body: object, schema: z.ZodType<T>, requestId?: string): Promise<T> {
    const headers = {
      authorization: basicAuthorization(config.publicId, config.apiSecret),
      'content-type': 'application/json',
      ...(requestId === undefined ? {} : { 'x-request-id': requestId }),
    };
    const envelope = await callProviderApi({
      http: config.http,
      providerId: 'cloudpayments',
      method: 'POST',
      url: `${baseUrl}${path}`,
      headers,
      body: JSON.stringify(body),
      schema: cloudPaymentsEnvelopeSchema,
      retryDelaysMs,
    });
    if (!envelope.Success)
      throw fail(
        `${path} refused: ${envelope.Message ?? 'no message'}`,
        envelope.Message === 'Not found' ? 404 : undefined,
      );
    const model = schema.safeParse(envelope.Model);
    if (!model.success) throw fail(`${path} answered a model that does not match its documented format`);
    return model.data;
  }
  const findTransaction = (invoiceId: string) =>
    callApi('/v2/payments/find', { InvoiceId: invoiceId }, cloudPaymentsTransactionSchema);

  return {
    id: 'cloudpayments',
    methods: ['card_rub'],
    currency: 'RUB',
    isSandbox: config.isSandbox,
    async createPayment(input) {
      if (input.method !== 'card_rub' || input.amount.currency !== 'RUB')
        throw fail(`CloudPayments does not take ${input.method} in ${input.amount.currency}`);
      const order = await callApi(
        '/orders/create',
        {
          Amount: Number(formatMinorUnits(input.amount.minorUnits)),
          Currency: 'RUB',
          Description: input.description.slice(0, 128),
          Email: input.customerEmail,
          InvoiceId: input.orderId,
          AccountId: input.userId,
          SuccessRedirectUrl: input.returnUrl,
          FailRedirectUrl: input.returnUrl,
        },
        cloudPaymentsOrderSchema,
        input.orderId,
      );
      return { providerPaymentId: input.orderId, confirmationUrl: order.Url };
    },
    async fetchPayment(providerPaymentId) {
      const payment = convertTransaction(await findTransaction(providerPaymentId), providerPaymentId);
      if (!payment) throw fail(`the payment of invoice ${providerPaymentId} is not a RUB amount`);
      return payment;
    },
    async refundPayment(input) {
      const transaction = await findTransaction(input.providerPaymentId);
      const refund = await callApi(
        '/payments/refund',
        { TransactionId: transaction.TransactionId, Amount: Number(formatMinorUnits(input.amount.minorUnits)) },
        cloudPaymentsRefundSchema,
        input.idempotencyKey,
      );
      return { refundId: String(refund.TransactionId) };
    },
    async verifyWebhook(delivery) {
      verifyContentHmac(delivery, config.apiSecret);
      return [convertCloudPaymentsNotification(delivery)];
    },
    // CloudPayments wants `{"code":0}`; an HTTP error makes it send the notification again.
    replyToWebhook: ({ isAccepted }): WebhookReply =>
      isAccepted
        ? { status: 200, contentType: 'application/json', body: '{"code":0}' }
        : { status: 500, contentType: 'application/json', body: '{"code":13}' },
  };
}
