import { request } from 'undici';
import type { PaymentHttp, PaymentHttpReply, PaymentHttpRequest } from './payment-provider.ts';

/**
 * The `PaymentHttp` the payment clients use: one undici request with the call's timeout and a cap on the answer's
 * size (a provider, or anything pretending to be one, cannot make the gateway buffer an endless body).
 */
export function createUndiciPaymentHttp(): PaymentHttp {
  return async (call: PaymentHttpRequest): Promise<PaymentHttpReply> => {
    const signals = [AbortSignal.timeout(call.timeoutMs), ...(call.signal ? [call.signal] : [])];
    const answer = await request(call.url, {
      method: call.method,
      headers: { ...call.headers },
      ...(call.body === undefined ? {} : { body: call.body }),
      signal: AbortSignal.any(signals),
      headersTimeout: call.timeoutMs,
      bodyTimeout: call.timeoutMs,
    });
    const bodyText = await readCappedText(answer.body, call.maxBodyBytes);
    return { status: answer.statusCode, headers: flattenHeaders(answer.headers), bodyText };
  };
}

async function readCappedText(
  body: AsyncIterable<Buffer> & { destroy: () => unknown },
  maxBodyBytes: number,
): Promise<string> {
  const chunks: Buffer[] = [];
  let byteCount = 0;
  for await (const chunk of body) {
    byteCount += chunk.length;
    if (byteCount > maxBodyBytes) {
      body.destroy();
      throw new Error(`the answer is larger than ${maxBodyBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
