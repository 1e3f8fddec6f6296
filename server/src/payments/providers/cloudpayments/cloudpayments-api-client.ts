import type { z } from 'zod';
import type { PaymentHttp } from '../../payment-provider.ts';
import { basicAuthorization, callProviderApi } from '../shared/call-provider-api.ts';
import { PaymentProviderError } from '../shared/payment-provider-error.ts';
import type { CloudPaymentsTransaction } from './cloudpayments-api.ts';
import {
  cloudPaymentsEnvelopeSchema,
  cloudPaymentsOrderSchema,
  cloudPaymentsRefundSchema,
  cloudPaymentsTransactionSchema,
} from './cloudpayments-api.ts';

/** The CloudPayments API calls the client makes, each schema-checked. @see https://developers.cloudpayments.ru/ (API section) */
export type CloudPaymentsApiClient = {
  createOrder: (body: Record<string, string | number>, requestId: string) => Promise<{ Id: string; Url: string }>;
  findPayment: (invoiceId: string) => Promise<CloudPaymentsTransaction>;
  refund: (body: { TransactionId: number; Amount: number }, requestId: string) => Promise<{ TransactionId: number }>;
};

const retryDelaysMs = [1_000, 3_000];

/**
 * Every call is a JSON POST with Basic auth (Public ID, API Secret) whose answer is `{Success, Message, Model}`;
 * `X-Request-ID` makes a repeated call the same operation, so repeats after a 5xx are safe.
 */
export function createCloudPaymentsApiClient(input: {
  publicId: string;
  apiSecret: string;
  apiBaseUrl: string;
  http: PaymentHttp;
}): CloudPaymentsApiClient {
  const baseUrl = input.apiBaseUrl.replace(/\/+$/, '');
  const authorization = basicAuthorization(input.publicId, input.apiSecret);

  async function call<T>(path: string, body: object, schema: z.ZodType<T>, requestId?: string): Promise<T> {
    const headers = {
      authorization,
      'content-type': 'application/json',
      ...(requestId === undefined ? {} : { 'x-request-id': requestId }),
    };
    const envelope = await callProviderApi({
      http: input.http,
      providerId: 'cloudpayments',
      method: 'POST',
      url: `${baseUrl}${path}`,
      headers,
      body: JSON.stringify(body),
      schema: cloudPaymentsEnvelopeSchema,
      retryDelaysMs,
    });
    // "Not found" is how find says the payer has not tried to pay yet: reported as a 404 for reconciliation.
    const refusal = (detail: string, httpStatus?: number) =>
      new PaymentProviderError({ providerId: 'cloudpayments', httpStatus, isRetryable: false, detail });
    if (!envelope.Success)
      throw refusal(
        `${path} refused: ${envelope.Message ?? 'no message'}`,
        envelope.Message === 'Not found' ? 404 : undefined,
      );
    const model = schema.safeParse(envelope.Model);
    if (!model.success) throw refusal(`${path} answered a model that does not match its documented format`);
    return model.data;
  }

  return {
    createOrder: (body, requestId) => call('/orders/create', body, cloudPaymentsOrderSchema, requestId),
    findPayment: (invoiceId) => call('/v2/payments/find', { InvoiceId: invoiceId }, cloudPaymentsTransactionSchema),
    refund: (body, requestId) => call('/payments/refund', body, cloudPaymentsRefundSchema, requestId),
  };
}
