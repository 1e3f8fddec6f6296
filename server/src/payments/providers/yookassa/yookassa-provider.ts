import type { Clock } from '../../../lib/clock.ts';
import type {
  CreatePaymentInput,
  CreatedPayment,
  PaymentHttp,
  PaymentProvider,
  WebhookReply,
} from '../../payment-provider.ts';
import { formatMinorUnits } from '../shared/minor-units.ts';
import { PaymentProviderError } from '../shared/payment-provider-error.ts';
import { convertCreatePaymentBody, convertYooKassaPayment, isYooKassaMethod } from './convert-yookassa-payment.ts';
import type { YooKassaApiClient } from './yookassa-api-client.ts';
import { createYooKassaApiClient } from './yookassa-api-client.ts';
import { verifyYooKassaNotification } from './verify-yookassa-notification.ts';

export type YooKassaProviderConfig = {
  shopId: string;
  secretKey: string;
  /** `https://api.yookassa.ru`, or a simulator's URL. */
  apiBaseUrl: string;
  /** The 54-FZ receipt's VAT code (1 = no VAT, … per the shop's tax system). */
  vatCode: number;
  isSandbox: boolean;
  http: PaymentHttp;
  clock: Clock;
  /** Waits before repeating a call YooKassa answered with 5xx (same Idempotence-Key); YooKassa suggests about a minute. */
  serverErrorRetryDelaysMs?: readonly number[];
};

const defaultRetryDelaysMs = [2_000, 10_000];

function refuse(detail: string): PaymentProviderError {
  return new PaymentProviderError({ providerId: 'yookassa', httpStatus: undefined, isRetryable: false, detail });
}

async function createPayment(
  api: YooKassaApiClient,
  vatCode: number,
  input: CreatePaymentInput,
): Promise<CreatedPayment> {
  const { method } = input;
  if (!isYooKassaMethod(method) || input.amount.currency !== 'RUB') {
    throw refuse(`YooKassa does not take ${method} in ${input.amount.currency}`);
  }
  // Idempotence-Key = our order id: a repeat after a 500 or a lost answer returns the same payment, never a second one.
  const payment = await api.createPayment(convertCreatePaymentBody({ ...input, method, vatCode }), input.orderId);
  const confirmationUrl = payment.confirmation?.confirmation_url;
  if (!confirmationUrl) throw refuse(`payment ${payment.id} came back ${payment.status} without a confirmation URL`);
  return { providerPaymentId: payment.id, confirmationUrl };
}

/** The YooKassa client: RUB by card, SBP or YooMoney wallet, on YooKassa's hosted page. @see https://yookassa.ru/developers/api */
export function createYooKassaProvider(config: YooKassaProviderConfig): PaymentProvider {
  const api = createYooKassaApiClient({
    ...config,
    retryDelaysMs: config.serverErrorRetryDelaysMs ?? defaultRetryDelaysMs,
  });
  return {
    id: 'yookassa',
    methods: ['card_rub', 'sbp', 'yoo_money'],
    currency: 'RUB',
    isSandbox: config.isSandbox,
    createPayment: (input) => createPayment(api, config.vatCode, input),
    async fetchPayment(providerPaymentId) {
      const payment = convertYooKassaPayment(await api.getPayment(providerPaymentId));
      if (!payment) throw refuse(`payment ${providerPaymentId} is not a RUB amount`);
      return payment;
    },
    async refundPayment(input) {
      const amount = { value: formatMinorUnits(input.amount.minorUnits), currency: input.amount.currency };
      const refund = await api.createRefund({ payment_id: input.providerPaymentId, amount }, input.idempotencyKey);
      return { refundId: refund.id };
    },
    verifyWebhook: (delivery) => verifyYooKassaNotification(delivery, api),
    // YooKassa reads only the status: 200 stops re-delivery, anything else is re-sent for 24 hours.
    replyToWebhook: ({ isAccepted }): WebhookReply => ({
      status: isAccepted ? 200 : 503,
      contentType: 'application/json',
      body: '{}',
    }),
  };
}
