import type { Clock } from '../../../lib/clock.ts';
import type {
  CreatePaymentInput,
  CreatedPayment,
  PaymentHttp,
  PaymentProvider,
  ProviderPayment,
  WebhookReply,
} from '../../payment-provider.ts';
import { formatMinorUnits, parseNumberAmount } from '../shared/minor-units.ts';
import { PaymentProviderError } from '../shared/payment-provider-error.ts';
import type { CloudPaymentsTransaction } from './cloudpayments-api.ts';
import type { CloudPaymentsApiClient } from './cloudpayments-api-client.ts';
import { createCloudPaymentsApiClient } from './cloudpayments-api-client.ts';
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

function refuse(detail: string): PaymentProviderError {
  return new PaymentProviderError({ providerId: 'cloudpayments', httpStatus: undefined, isRetryable: false, detail });
}

/**
 * Transaction statuses: Completed is paid; Declined and Cancelled are final failures; the rest are still open.
 * @see https://developers.cloudpayments.ru/ ("operation statuses")
 */
function convertTransaction(transaction: CloudPaymentsTransaction, invoiceId: string): ProviderPayment {
  const minorUnits = parseNumberAmount(transaction.Amount);
  if (minorUnits === undefined || transaction.Currency !== 'RUB')
    throw refuse(`the payment of invoice ${invoiceId} is not a RUB amount`);
  const isFailed = ['Declined', 'Cancelled'].includes(transaction.Status);
  const status = transaction.Status === 'Completed' ? 'succeeded' : isFailed ? 'canceled' : 'pending';
  return {
    providerPaymentId: invoiceId,
    orderId: transaction.InvoiceId ?? undefined,
    status,
    amount: { currency: 'RUB', minorUnits },
    // The transaction model carries no refunded total; refunds reach the gateway as Refund notifications.
    refundedMinorUnits: 0,
    isTest: transaction.TestMode,
    cancellationReason: isFailed ? (transaction.Reason ?? undefined) : undefined,
  };
}

async function createPayment(api: CloudPaymentsApiClient, input: CreatePaymentInput): Promise<CreatedPayment> {
  if (input.method !== 'card_rub' || input.amount.currency !== 'RUB') {
    throw refuse(`CloudPayments does not take ${input.method} in ${input.amount.currency}`);
  }
  const order = await api.createOrder(
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
    input.orderId,
  );
  return { providerPaymentId: input.orderId, confirmationUrl: order.Url };
}

/**
 * The CloudPayments client: RUB by card on CloudPayments' hosted order page. Our payment id is the InvoiceId (our
 * order id), because the find API looks payments up by it. @see https://developers.cloudpayments.ru/ (API section)
 */
export function createCloudPaymentsProvider(config: CloudPaymentsProviderConfig): PaymentProvider {
  const api = createCloudPaymentsApiClient(config);
  return {
    id: 'cloudpayments',
    methods: ['card_rub'],
    currency: 'RUB',
    isSandbox: config.isSandbox,
    createPayment: (input) => createPayment(api, input),
    fetchPayment: async (providerPaymentId) =>
      convertTransaction(await api.findPayment(providerPaymentId), providerPaymentId),
    async refundPayment(input) {
      const transaction = await api.findPayment(input.providerPaymentId);
      const amount = Number(formatMinorUnits(input.amount.minorUnits));
      const refund = await api.refund(
        { TransactionId: transaction.TransactionId, Amount: amount },
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
