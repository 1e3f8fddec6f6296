import type { z } from 'zod';
import type { PaymentHttp } from '../../payment-provider.ts';
import { callProviderApi } from '../shared/call-provider-api.ts';
import type { StripeSession } from './stripe-api.ts';
import { stripeRefundSchema, stripeSessionListSchema, stripeSessionSchema } from './stripe-api.ts';

/** The Stripe API calls the client makes, each schema-checked. @see https://docs.stripe.com/api */
export type StripeApiClient = {
  createSession: (form: URLSearchParams, idempotencyKey: string) => Promise<StripeSession>;
  /** The session with its PaymentIntent's latest charge expanded (for the refunded total). */
  getSession: (sessionId: string) => Promise<StripeSession>;
  findSessionByPaymentIntent: (paymentIntentId: string) => Promise<StripeSession | undefined>;
  createRefund: (form: URLSearchParams, idempotencyKey: string) => Promise<{ id: string }>;
};

/** Reads may be repeated; Stripe replays a POST's saved answer (5xx included) for its key, so POSTs are not. */
const readRetryDelaysMs = [1_000, 3_000];

export function createStripeApiClient(input: {
  secretKey: string;
  apiBaseUrl: string;
  http: PaymentHttp;
}): StripeApiClient {
  const baseUrl = input.apiBaseUrl.replace(/\/+$/, '');
  const authorization = `Bearer ${input.secretKey}`;
  const post = <T>(path: string, form: URLSearchParams, idempotencyKey: string, schema: z.ZodType<T>) =>
    callProviderApi({
      http: input.http,
      providerId: 'stripe',
      method: 'POST',
      url: `${baseUrl}${path}`,
      headers: {
        authorization,
        'content-type': 'application/x-www-form-urlencoded',
        'idempotency-key': idempotencyKey,
      },
      body: form.toString(),
      schema,
    });
  const get = <T>(pathAndQuery: string, schema: z.ZodType<T>) =>
    callProviderApi({
      http: input.http,
      providerId: 'stripe',
      method: 'GET',
      url: `${baseUrl}${pathAndQuery}`,
      headers: { authorization },
      schema,
      retryDelaysMs: readRetryDelaysMs,
    });
  return {
    createSession: (form, idempotencyKey) => post('/v1/checkout/sessions', form, idempotencyKey, stripeSessionSchema),
    getSession: (sessionId) =>
      get(
        `/v1/checkout/sessions/${encodeURIComponent(sessionId)}?expand[]=payment_intent.latest_charge`,
        stripeSessionSchema,
      ),
    async findSessionByPaymentIntent(paymentIntentId) {
      const query = new URLSearchParams({ payment_intent: paymentIntentId, limit: '1' });
      return (await get(`/v1/checkout/sessions?${query}`, stripeSessionListSchema)).data[0];
    },
    createRefund: (form, idempotencyKey) => post('/v1/refunds', form, idempotencyKey, stripeRefundSchema),
  };
}
