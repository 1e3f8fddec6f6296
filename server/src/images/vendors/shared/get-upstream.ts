import { request, type Dispatcher } from 'undici';
import { UpstreamFailureError } from '../../../providers/provider-adapter.ts';
import type { UpstreamResponse } from '../../../providers/shared/post-json.ts';
import type { UpstreamTimeouts } from '../../../providers/shared/upstream-timeouts.ts';

const timeoutErrorCodes = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * A GET to a vendor (a poll or an image download), the counterpart of `postJson` with the same failure rules:
 * connection failures and timeouts become a retryable UpstreamFailureError (502, or 504 for a timeout); when
 * `signal` aborts, its reason is rethrown unchanged.
 */
export async function getUpstream(input: {
  url: string;
  headers: Record<string, string>;
  dispatcher: Dispatcher;
  signal: AbortSignal;
  timeouts: UpstreamTimeouts;
}): Promise<UpstreamResponse> {
  try {
    const response = await request(input.url, {
      method: 'GET',
      headers: input.headers,
      dispatcher: input.dispatcher,
      signal: input.signal,
      headersTimeout: input.timeouts.firstByteTimeoutMs,
      bodyTimeout: input.timeouts.idleTimeoutMs,
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    return { status: response.statusCode, headers, body: response.body };
  } catch (error) {
    throw convertTransportError(error, input.signal);
  }
}

/** A whole binary body (an image), refused as an upstream failure above `maxBytes`. */
export async function readUpstreamBytes(
  body: AsyncIterable<Uint8Array>,
  input: { maxBytes: number; signal: AbortSignal },
): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let byteCount = 0;
  try {
    for await (const chunk of body) {
      byteCount += chunk.byteLength;
      if (byteCount > input.maxBytes) {
        throw new UpstreamFailureError({
          kind: 'retryable',
          status: 502,
          message: 'The upstream provider sent an image larger than the gateway accepts.',
          vendorCode: 'image_too_large',
        });
      }
      chunks.push(chunk);
    }
  } catch (error) {
    throw convertTransportError(error, input.signal);
  }
  return Buffer.concat(chunks);
}

function convertTransportError(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason ?? error;
  if (error instanceof UpstreamFailureError) return error;
  const code =
    typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
      ? error.code
      : undefined;
  const isTimeout = code !== undefined && timeoutErrorCodes.has(code);
  return new UpstreamFailureError({
    kind: 'retryable',
    status: isTimeout ? 504 : 502,
    message: isTimeout
      ? 'The upstream provider did not answer in time.'
      : 'The upstream provider could not be reached.',
    vendorCode: code ?? 'connection_error',
  });
}
