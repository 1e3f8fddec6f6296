import type { Clock } from '../../../lib/clock.ts';
import type {
  CreatePaymentInput,
  CreatedPayment,
  PaymentHttp,
  PaymentProvider,
  WebhookReply,
} from '../../payment-provider.ts';
import { parseNotificationJson } from '../shared/parse-provider-json.ts';
import { PaymentProviderError } from '../shared/payment-provider-error.ts';
import { convertStripeEvent } from './convert-stripe-event.ts';
import { convertCreateSessionForm, convertStripeSession, readPaymentIntentId } from './convert-stripe-session.ts';
import { stripeEventSchema } from './stripe-api.ts';
import type { StripeApiClient } from './stripe-api-client.ts';
import { createStripeApiClient } from './stripe-api-client.ts';
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

function refuse(detail: string): PaymentProviderError {
  return new PaymentProviderError({ providerId: 'stripe', httpStatus: undefined, isRetryable: false, detail });
}

async function createPayment(api: StripeApiClient, input: CreatePaymentInput): Promise<CreatedPayment> {
  if (input.method !== 'card_usd' || input.amount.currency !== 'USD') {
    throw refuse(`Stripe Checkout does not take ${input.method} in ${input.amount.currency}`);
  }
  // Idempotency-Key = our order id: a retried create returns the same session; other parameters are refused.
  const session = await api.createSession(convertCreateSessionForm(input), input.orderId);
  if (!session.url) throw refuse(`session ${session.id} came back without a URL`);
  return { providerPaymentId: session.id, confirmationUrl: session.url };
}

/** The Stripe Checkout client: USD card payments on Stripe's hosted page. @see https://docs.stripe.com/api/checkout/sessions */
export function createStripeProvider(config: StripeProviderConfig): PaymentProvider {
  const api = createStripeApiClient(config);
  return {
    id: 'stripe',
    methods: ['card_usd'],
    currency: 'USD',
    isSandbox: config.isSandbox,
    createPayment: (input) => createPayment(api, input),
    async fetchPayment(providerPaymentId) {
      const payment = convertStripeSession(await api.getSession(providerPaymentId));
      if (!payment) throw refuse(`session ${providerPaymentId} is not a USD amount`);
      return payment;
    },
    async refundPayment(input) {
      const paymentIntentId = readPaymentIntentId(await api.getSession(input.providerPaymentId));
      if (!paymentIntentId) throw refuse(`session ${input.providerPaymentId} has no payment to refund`);
      const form = new URLSearchParams({ payment_intent: paymentIntentId, amount: String(input.amount.minorUnits) });
      return { refundId: (await api.createRefund(form, input.idempotencyKey)).id };
    },
    async verifyWebhook(delivery) {
      // The signature covers the raw bytes, so it is checked before the body is parsed.
      const header = delivery.headers['stripe-signature'];
      verifyStripeSignature({
        header,
        rawBody: delivery.rawBody,
        webhookSecret: config.webhookSecret,
        nowMs: config.clock.nowMs(),
      });
      return [await convertStripeEvent(parseNotificationJson(stripeEventSchema, delivery.rawBody), api)];
    },
    replyToWebhook: ({ isAccepted }): WebhookReply => ({
      status: isAccepted ? 200 : 500,
      contentType: 'application/json',
      body: `{"received":${isAccepted}}`,
    }),
  };
}
