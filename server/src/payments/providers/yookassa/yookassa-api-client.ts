import type { z } from 'zod';
import type { PaymentHttp } from '../../payment-provider.ts';
import { basicAuthorization, callProviderApi } from '../shared/call-provider-api.ts';
import type { YooKassaAmount, YooKassaCreatePaymentBody, YooKassaPayment, YooKassaRefund } from './yookassa-api.ts';
import { yooKassaPaymentSchema, yooKassaRefundSchema } from './yookassa-api.ts';

/** The four YooKassa API calls the client makes, each schema-checked. @see https://yookassa.ru/developers/api */
export type YooKassaApiClient = {
  createPayment: (body: YooKassaCreatePaymentBody, idempotenceKey: string) => Promise<YooKassaPayment>;
  getPayment: (paymentId: string) => Promise<YooKassaPayment>;
  createRefund: (
    body: { payment_id: string; amount: YooKassaAmount },
    idempotenceKey: string,
  ) => Promise<YooKassaRefund>;
  getRefund: (refundId: string) => Promise<YooKassaRefund>;
};

/**
 * Basic auth with the shop id and secret key; every call may be repeated after a 5xx, because POSTs carry an
 * Idempotence-Key (YooKassa answers a repeat with the first result) and GETs change nothing.
 */
export function createYooKassaApiClient(input: {
  shopId: string;
  secretKey: string;
  apiBaseUrl: string;
  http: PaymentHttp;
  retryDelaysMs: readonly number[];
}): YooKassaApiClient {
  const baseUrl = input.apiBaseUrl.replace(/\/+$/, '');
  const authorization = basicAuthorization(input.shopId, input.secretKey);
  const common = { http: input.http, providerId: 'yookassa', retryDelaysMs: input.retryDelaysMs } as const;
  const post = <T>(path: string, body: object, idempotenceKey: string, schema: z.ZodType<T>) =>
    callProviderApi({
      ...common,
      method: 'POST',
      url: `${baseUrl}${path}`,
      headers: { authorization, 'content-type': 'application/json', 'idempotence-key': idempotenceKey },
      body: JSON.stringify(body),
      schema,
    });
  const get = <T>(path: string, schema: z.ZodType<T>) =>
    callProviderApi({ ...common, method: 'GET', url: `${baseUrl}${path}`, headers: { authorization }, schema });
  return {
    createPayment: (body, idempotenceKey) => post('/v3/payments', body, idempotenceKey, yooKassaPaymentSchema),
    getPayment: (paymentId) => get(`/v3/payments/${encodeURIComponent(paymentId)}`, yooKassaPaymentSchema),
    createRefund: (body, idempotenceKey) => post('/v3/refunds', body, idempotenceKey, yooKassaRefundSchema),
    getRefund: (refundId) => get(`/v3/refunds/${encodeURIComponent(refundId)}`, yooKassaRefundSchema),
  };
}
