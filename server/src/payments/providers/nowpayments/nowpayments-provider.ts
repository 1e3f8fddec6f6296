import { createHmac } from 'node:crypto';
import type { PaymentEvent, PaymentHttp, PaymentProvider, ProviderPayment } from '../../payment-provider.ts';
import { WebhookRejectedError } from '../../payment-provider.ts';
import { callProviderApi } from '../shared/call-provider-api.ts';
import { parseNotificationJson } from '../shared/parse-provider-json.ts';
import { PaymentProviderError } from '../shared/payment-provider-error.ts';
import { isSignatureMatch } from '../shared/verify-hmac.ts';
import { nowPaymentIpnSchema, nowPaymentSchema, sortedJson, toMicroUnits, type NowPayment } from './nowpayments-api.ts';

/** Where the provider records each order's deposit (`crypto_deposits`, in production). */
export type NowPaymentsDepositStore = {
  recordDeposit: (input: {
    orderId: string;
    address: string;
    expectedMicroUsdt: number;
    microUsdtPerUsd: number;
  }) => Promise<void>;
};

export type NowPaymentsOptions = {
  apiKey: string;
  ipnSecret: string;
  apiBaseUrl: string;
  /** Where NOWPayments posts its IPNs: `<PUBLIC_BASE_URL>/webhooks/nowpayments`. */
  ipnCallbackUrl: string;
  store: NowPaymentsDepositStore;
  http: PaymentHttp;
  isSandbox: boolean;
};

const readRetryDelaysMs = [500, 2000];
/** Statuses after which more USDT may have arrived: the running total `actually_paid` is credited. */
const receivingStatuses = new Set(['partially_paid', 'confirmed', 'sending', 'finished']);
const closedStatuses = new Set(['expired', 'failed']);

/**
 * USDT (TRC20) through NOWPayments: a payment per order (`pay_currency: usdttrc20`) whose address and exact amount
 * the top-up panel shows. An IPN is checked (HMAC-SHA512 of the key-sorted JSON in `x-nowpayments-sig`), then the
 * payment is re-fetched, and only the re-fetched `actually_paid` is credited, as a running total, so an IPN repeated,
 * replayed or out of order credits each USDT once.
 */
export function createNowPaymentsProvider(options: NowPaymentsOptions): PaymentProvider {
  const headers = { 'x-api-key': options.apiKey, 'content-type': 'application/json', accept: 'application/json' };
  const fetchRaw = (paymentId: string) =>
    callProviderApi({
      http: options.http,
      providerId: 'nowpayments',
      method: 'GET',
      url: `${options.apiBaseUrl}/v1/payment/${encodeURIComponent(paymentId)}`,
      headers,
      schema: nowPaymentSchema,
      retryDelaysMs: readRetryDelaysMs,
    });
  return {
    id: 'nowpayments',
    methods: ['usdt_trc20'],
    currency: 'USD',
    isSandbox: options.isSandbox,
    refunds: 'none',
    createPayment: async (input) => {
      const payment = await callProviderApi({
        http: options.http,
        providerId: 'nowpayments',
        method: 'POST',
        url: `${options.apiBaseUrl}/v1/payment`,
        headers,
        body: JSON.stringify({
          price_amount: input.amount.minorUnits / 100,
          price_currency: 'usd',
          pay_currency: 'usdttrc20',
          ipn_callback_url: options.ipnCallbackUrl,
          order_id: input.orderId,
          order_description: input.description,
        }),
        schema: nowPaymentSchema,
      });
      const expectedMicroUsdt = toMicroUnits(payment.pay_amount);
      if (payment.pay_currency.toLowerCase() !== 'usdttrc20' || expectedMicroUsdt === undefined) {
        throw new PaymentProviderError({
          providerId: 'nowpayments',
          httpStatus: undefined,
          isRetryable: false,
          detail: `the payment asks for ${payment.pay_currency}, not usdttrc20`,
        });
      }
      const microUsdtPerUsd = Number(
        (BigInt(expectedMicroUsdt) * 1_000_000n) / BigInt(Math.max(1, input.amount.minorUnits * 10_000)),
      );
      await options.store.recordDeposit({
        orderId: input.orderId,
        address: payment.pay_address,
        expectedMicroUsdt,
        microUsdtPerUsd,
      });
      return { providerPaymentId: String(payment.payment_id), confirmationUrl: `tron:${payment.pay_address}` };
    },
    fetchPayment: async (paymentId) => toProviderPayment(await fetchRaw(paymentId), options.isSandbox),
    fetchPaymentEvents: async (paymentId) => eventsFor(await fetchRaw(paymentId), options.isSandbox),
    refundPayment: async () => {
      throw new PaymentProviderError({
        providerId: 'nowpayments',
        httpStatus: undefined,
        isRetryable: false,
        detail: 'USDT payments are refunded from the NOWPayments dashboard, not through the gateway',
      });
    },
    verifyWebhook: async (delivery) => {
      const presented = delivery.headers['x-nowpayments-sig'] ?? '';
      const body = parseNotificationJson(nowPaymentIpnSchema, delivery.rawBody);
      const expected = createHmac('sha512', options.ipnSecret).update(sortedJson(body)).digest('hex');
      if (!isSignatureMatch(expected, presented.toLowerCase())) {
        throw new WebhookRejectedError('the x-nowpayments-sig signature does not match');
      }
      // The IPN only says "look again": what is credited is what the API says now.
      return eventsFor(await fetchRaw(String(body.payment_id)), options.isSandbox);
    },
    replyToWebhook: ({ isAccepted }) => ({
      status: isAccepted ? 200 : 400,
      contentType: 'text/plain',
      body: isAccepted ? 'ok' : 'rejected',
    }),
  };
}

function eventsFor(payment: NowPayment, isTest: boolean): PaymentEvent[] {
  const paymentId = String(payment.payment_id);
  const status = payment.payment_status;
  const received = toMicroUnits(payment.actually_paid) ?? 0;
  if (receivingStatuses.has(status) && received > 0) {
    const currency = payment.pay_currency.toLowerCase() === 'usdttrc20' ? 'USDT' : payment.pay_currency;
    return [
      {
        kind: 'received',
        eventKey: `${paymentId}:${status}:${received}`,
        providerPaymentId: paymentId,
        orderId: payment.order_id ?? undefined,
        transferKey: `${paymentId}:${received}`,
        txId: paymentId,
        received: { currency, microUnits: received, isRunningTotal: true },
        isTest,
      },
    ];
  }
  if (closedStatuses.has(status) && received === 0) {
    return [{ kind: 'canceled', eventKey: `${paymentId}:${status}`, payment: toProviderPayment(payment, isTest) }];
  }
  return [{ kind: 'ignored', eventKey: `${paymentId}:${status}:${received}`, reason: `status ${status}` }];
}

function toProviderPayment(payment: NowPayment, isTest: boolean): ProviderPayment {
  const status = payment.payment_status;
  return {
    providerPaymentId: String(payment.payment_id),
    orderId: payment.order_id ?? undefined,
    // USDT is credited by 'received' events; to reconciliation a payment is only ever pending or closed unpaid.
    status: closedStatuses.has(status) && (toMicroUnits(payment.actually_paid) ?? 0) === 0 ? 'canceled' : 'pending',
    amount: { currency: 'USD', minorUnits: Math.round((toMicroUnits(payment.price_amount) ?? 0) / 10_000) },
    refundedMinorUnits: 0,
    isTest,
    cancellationReason: closedStatuses.has(status) ? status : undefined,
  };
}
