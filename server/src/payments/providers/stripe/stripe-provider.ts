import type { Clock } from '../../../lib/clock.ts';
import type { PaymentHttp, PaymentProvider, WebhookReply } from '../../payment-provider.ts';
import { callProviderApi } from '../shared/call-provider-api.ts';
import { parseNotificationJson } from '../shared/parse-provider-json.ts';
import { PaymentProviderError } from '../shared/payment-provider-error.ts';
import { convertStripeEvent } from './convert-stripe-event.ts';
import { convertCreateSessionForm, convertStripeSession, readPaymentIntentId } from './convert-stripe-session.ts';
import { stripeEventSchema, stripeRefundSchema, stripeSessionListSchema, stripeSessionSchema } from './stripe-api.ts';
import { verifyStripeSignature } from './verify-stripe-signature.ts';

export type StripeProviderConfig = {
  secretKey: string;
  /** The endpoint's signing secret (`whsec_…`); test and live mode have different ones. */
  webhookSecret: string;
  /** `https://api.stripe.com`, or a simulator's URL. */
  apiBaseUrl: string;
  isSandbox: boolean;
  http: PaymentHttp;
  clock: Clock;
};

/** Reads may be repeated; Stripe replays a POST's saved answer (5xx included) for its key, so POSTs are not. */
const readRetryDelaysMs = [1_000, 3_000];

/** The Stripe Checkout client: USD card payments on Stripe's hosted page. @see https://docs.stripe.com/api/checkout/sessions */
export function createStripeProvider(config: StripeProviderConfig): PaymentProvider {
  const baseUrl = config.apiBaseUrl.replace(/\/+$/, '');
  const headers = (idempotencyKey?: string): Record<string, string> => ({
    authorization: `Bearer ${config.secretKey}`,
    'content-type': 'application/x-www-form-urlencoded',
    ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
  });
  const fail = (detail: string) =>
    new PaymentProviderError({ providerId: 'stripe', httpStatus: undefined, isRetryable: false, detail });
  const getSession = (sessionId: string) =>
    callProviderApi({
      http: config.http,
      providerId: 'stripe',
      method: 'GET',
      url: `${baseUrl}/v1/checkout/sessions/${encodeURIComponent(sessionId)}?expand[]=payment_intent.latest_charge`,
      headers: headers(),
      schema: stripeSessionSchema,
      retryDelaysMs: readRetryDelaysMs,
    });
  const findSessionByPaymentIntent = async (paymentIntentId: string) => {
    const query = new URLSearchParams({ payment_intent: paymentIntentId, limit: '1' });
    const list = await callProviderApi({
      http: config.http,
      providerId: 'stripe',
      method: 'GET',
      url: `${baseUrl}/v1/checkout/sessions?${query}`,
      headers: headers(),
      schema: stripeSessionListSchema,
      retryDelaysMs: readRetryDelaysMs,
    });
    return list.data[0];
  };

  return {
    id: 'stripe',
    methods: ['card_usd'],
    currency: 'USD',
    isSandbox: config.isSandbox,
    async createPayment(input) {
      if (input.method !== 'card_usd' || input.amount.currency !== 'USD')
        throw fail(`Stripe Checkout does not take ${input.method} in ${input.amount.currency}`);
      // Idempotency-Key = our order id: a retried create returns the same session; other parameters are refused.
      const session = await callProviderApi({
        http: config.http,
        providerId: 'stripe',
        method: 'POST',
        url: `${baseUrl}/v1/checkout/sessions`,
        headers: headers(input.orderId),
        body: convertCreateSessionForm(input).toString(),
        schema: stripeSessionSchema,
      });
      if (!session.url) throw fail(`session ${session.id} came back without a URL`);
      return { providerPaymentId: session.id, confirmationUrl: session.url };
    },
    async fetchPayment(providerPaymentId) {
      const payment = convertStripeSession(await getSession(providerPaymentId));
      if (!payment) throw fail(`session ${providerPaymentId} is not a USD amount`);
      return payment;
    },
    async refundPayment(input) {
      const paymentIntentId = readPaymentIntentId(await getSession(input.providerPaymentId));
      if (!paymentIntentId) throw fail(`session ${input.providerPaymentId} has no payment to refund`);
      const form = new URLSearchParams({ payment_intent: paymentIntentId, amount: String(input.amount.minorUnits) });
      const refund = await callProviderApi({
        http: config.http,
        providerId: 'stripe',
        method: 'POST',
        url: `${baseUrl}/v1/refunds`,
        headers: headers(input.idempotencyKey),
        body: form.toString(),
        schema: stripeRefundSchema,
      });
      return { refundId: refund.id };
    },
    async verifyWebhook(delivery) {
      // The signature covers the raw bytes, so it is checked before the body is parsed.
      verifyStripeSignature({
        header: delivery.headers['stripe-signature'],
        rawBody: delivery.rawBody,
        webhookSecret: config.webhookSecret,
        nowMs: config.clock.nowMs(),
      });
      const event = parseNotificationJson(stripeEventSchema, delivery.rawBody);
      return [await convertStripeEvent(event, { findSessionByPaymentIntent })];
    },
    replyToWebhook: ({ isAccepted }): WebhookReply =>
      isAccepted
        ? { status: 200, contentType: 'application/json', body: '{"received":true}' }
        : { status: 500, contentType: 'application/json', body: '{"received":false}' },
  };
}
