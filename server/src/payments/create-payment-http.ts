import { request, type Dispatcher } from 'undici';
import type { PaymentHttp, PaymentHttpReply } from './payment-provider.ts';

/**
 * The production `PaymentHttp`: one undici request per call over the given connection pool, the whole exchange
 * bounded by `timeoutMs`, the body bounded by `maxBodyBytes` and decoded by the charset the reply declares (UTF-8
 * unless told otherwise; the CBR feed is windows-1251).
 */
export function createPaymentHttp(input: { dispatcher: Dispatcher }): PaymentHttp {
  return async (call) => {
    const signals = [AbortSignal.timeout(call.timeoutMs), ...(call.signal ? [call.signal] : [])];
    const response = await request(call.url, {
      method: call.method,
      headers: call.headers ?? {},
      body: call.body ?? null,
      dispatcher: input.dispatcher,
      signal: AbortSignal.any(signals),
    });
    const headers = flattenHeaders(response.headers);
    const bytes: Buffer[] = [];
    let byteCount = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      byteCount += chunk.length;
      if (byteCount > call.maxBodyBytes) {
        response.body.destroy();
        throw new Error(`the payment service's answer exceeds ${call.maxBodyBytes} bytes`);
      }
      bytes.push(chunk);
    }
    return { status: response.statusCode, headers, bodyText: decode(Buffer.concat(bytes), headers) };
  };
}

function decode(body: Buffer, headers: PaymentHttpReply['headers']): string {
  const charset = /charset=([\w-]+)/i.exec(headers['content-type'] ?? '')?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
