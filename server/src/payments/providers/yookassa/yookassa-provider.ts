import type { Clock } from '../../../lib/clock.ts';
import type {
  CreatePaymentInput,
  CreatedPayment,
  PaymentHttp,
  PaymentProvider,
  WebhookReply,
} from '../../payment-provider.ts';
import { basicAuthorization, callProviderApi } from '../shared/call-provider-api.ts';
import { formatMinorUnits } from '../shared/minor-units.ts';
import { PaymentProviderError } from '../shared/payment-provider-error.ts';
import { convertCreatePaymentBody, convertYooKassaPayment, isYooKassaMethod } from './convert-yookassa-payment.ts';
import { yooKassaPaymentSchema, yooKassaRefundSchema } from './yookassa-api.ts';
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

/** The YooKassa client: RUB by card, SBP or YooMoney wallet, on YooKassa's hosted page. @see https://yookassa.ru/developers/api */
export function createYooKassaProvider(config: YooKassaProviderConfig): PaymentProvider {
  const baseUrl = config.apiBaseUrl.replace(/\/+$/, '');
  const retryDelaysMs = config.serverErrorRetryDelaysMs ?? defaultRetryDelaysMs;
  const headers = (idempotenceKey?: string): Record<string, string> => ({
    authorization: basicAuthorization(config.shopId, config.secretKey),
    'content-type': 'application/json',
    ...(idempotenceKey === undefined ? {} : { 'idempotence-key': idempotenceKey }),
  });
  const getPayment = (paymentId: string) =>
    callProviderApi({
      http: config.http,
      providerId: 'yookassa',
      method: 'GET',
      url: `${baseUrl}/v3/payments/${encodeURIComponent(paymentId)}`,
      headers: headers(),
      schema: yooKassaPaymentSchema,
      retryDelaysMs,
    });
  const getRefund = (refundId: string) =>
    callProviderApi({
      http: config.http,
      providerId: 'yookassa',
      method: 'GET',
      url: `${baseUrl}/v3/refunds/${encodeURIComponent(refundId)}`,
      headers: headers(),
      schema: yooKassaRefundSchema,
      retryDelaysMs,
    });

  async function createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
    const { method } = input;
    if (!isYooKassaMethod(method) || input.amount.currency !== 'RUB') {
      throw new PaymentProviderError({
        providerId: 'yookassa',
        httpStatus: undefined,
        isRetryable: false,
        detail: `YooKassa does not take ${method} in ${input.amount.currency}`,
      });
    }
    const body = convertCreatePaymentBody({ ...input, method, vatCode: config.vatCode });
    // Idempotence-Key = our order id: a repeat after a 500 or a lost answer returns the same payment, never a second one.
    const payment = await callProviderApi({
      http: config.http,
      providerId: 'yookassa',
      method: 'POST',
      url: `${baseUrl}/v3/payments`,
      headers: headers(input.orderId),
      body: JSON.stringify(body),
      schema: yooKassaPaymentSchema,
      retryDelaysMs,
    });
    const confirmationUrl = payment.confirmation?.confirmation_url;
    if (!confirmationUrl) {
      throw new PaymentProviderError({
        providerId: 'yookassa',
        httpStatus: undefined,
        isRetryable: false,
        detail: `payment ${payment.id} came back ${payment.status} without a confirmation URL`,
      });
    }
    return { providerPaymentId: payment.id, confirmationUrl };
  }

  return {
    id: 'yookassa',
    methods: ['card_rub', 'sbp', 'yoo_money'],
    currency: 'RUB',
    isSandbox: config.isSandbox,
    createPayment,
    async fetchPayment(providerPaymentId) {
      const payment = convertYooKassaPayment(await getPayment(providerPaymentId));
      if (payment) return payment;
      throw new PaymentProviderError({
        providerId: 'yookassa',
        httpStatus: undefined,
        isRetryable: false,
        detail: `payment ${providerPaymentId} is not a RUB amount`,
      });
    },
    async refundPayment(input) {
      const body = {
        payment_id: input.providerPaymentId,
        amount: { value: formatMinorUnits(input.amount.minorUnits), currency: input.amount.currency },
      };
      const refund = await callProviderApi({
        http: config.http,
        providerId: 'yookassa',
        method: 'POST',
        url: `${baseUrl}/v3/refunds`,
        headers: headers(input.idempotencyKey),
        body: JSON.stringify(body),
        schema: yooKassaRefundSchema,
        retryDelaysMs,
      });
      return { refundId: refund.id };
    },
    verifyWebhook: (delivery) => verifyYooKassaNotification(delivery, { getPayment, getRefund }),
    // YooKassa reads only the status: 200 stops re-delivery, anything else is re-sent for 24 hours.
    replyToWebhook: ({ isAccepted }): WebhookReply =>
      isAccepted
        ? { status: 200, contentType: 'application/json', body: '{}' }
        : { status: 503, contentType: 'application/json', body: '{}' },
  };
}
