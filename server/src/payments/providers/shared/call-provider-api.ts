import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import type { PaymentHttp, PaymentHttpReply, PaymentHttpRequest, PaymentProviderId } from '../../payment-provider.ts';
import { parseProviderAnswer } from './parse-provider-json.ts';
import { PaymentProviderError } from './payment-provider-error.ts';

const callTimeoutMs = 30_000;
const maxAnswerBytes = 1024 * 1024;

export type ProviderApiCall<T> = {
  http: PaymentHttp;
  providerId: PaymentProviderId;
  method: PaymentHttpRequest['method'];
  url: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
  schema: z.ZodType<T>;
  /**
   * Waits before each repeat of a call that failed with a 5xx or a network error. Only for calls that carry an
   * idempotency key (or are reads), so a repeat can never make a second payment or refund.
   */
  retryDelaysMs?: readonly number[];
};

/** One provider API call: sends it, repeats it on 5xx as configured, and checks the 2xx answer against its schema. */
export async function callProviderApi<T>(call: ProviderApiCall<T>): Promise<T> {
  const delaysMs = call.retryDelaysMs ?? [];
  for (let attempt = 0; ; attempt += 1) {
    const outcome = await sendOnce(call);
    if (outcome.kind === 'answer')
      return parseProviderAnswer({ schema: call.schema, text: outcome.reply.bodyText, providerId: call.providerId });
    const delayMs = delaysMs[attempt];
    if (!outcome.error.isRetryable || delayMs === undefined) throw outcome.error;
    await sleep(delayMs);
  }
}

type SendOutcome = { kind: 'answer'; reply: PaymentHttpReply } | { kind: 'failure'; error: PaymentProviderError };

async function sendOnce<T>(call: ProviderApiCall<T>): Promise<SendOutcome> {
  const request: PaymentHttpRequest = {
    method: call.method,
    url: call.url,
    headers: call.headers,
    timeoutMs: callTimeoutMs,
    maxBodyBytes: maxAnswerBytes,
    ...(call.body === undefined ? {} : { body: call.body }),
  };
  let reply: PaymentHttpReply;
  try {
    reply = await call.http(request);
  } catch (error) {
    const message = error instanceof Error ? error.message : 'unknown error';
    const isRefusedLocally = isRefusedByHttpClient(error);
    const detail = isRefusedLocally
      ? `the request could not be sent (${message})`
      : `the API could not be reached (${message})`;
    return {
      kind: 'failure',
      error: new PaymentProviderError({
        providerId: call.providerId,
        httpStatus: undefined,
        isRetryable: !isRefusedLocally,
        detail,
      }),
    };
  }
  if (reply.status >= 200 && reply.status < 300) return { kind: 'answer', reply };
  const isRetryable = reply.status >= 500 || reply.status === 429;
  const detail = `the API answered HTTP ${reply.status} to ${call.method} ${new URL(call.url).pathname}`;
  return {
    kind: 'failure',
    error: new PaymentProviderError({ providerId: call.providerId, httpStatus: reply.status, isRetryable, detail }),
  };
}

/**
 * undici refuses a request it cannot send as given (a header value with a control or non-Latin-1 character, a bad
 * method) before any byte leaves: the same call would be refused again, so it is a bug to report, not an outage to
 * wait out with retries.
 */
function isRefusedByHttpClient(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'UND_ERR_INVALID_ARG';
}

/** `Authorization: Basic …` from a user name and password (YooKassa's shop id and key, CloudPayments' Public ID and secret). */
export function basicAuthorization(userName: string, password: string): string {
  return `Basic ${Buffer.from(`${userName}:${password}`, 'utf8').toString('base64')}`;
}
