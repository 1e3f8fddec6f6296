import { Agent, request, type Dispatcher } from 'undici';
import { UpstreamFailureError, type UpstreamHttpRequest } from '../provider-adapter.ts';
import { createGuardedConnector, type UpstreamAddressPolicy } from './create-guarded-connector.ts';
import type { UpstreamTimeouts } from './upstream-timeouts.ts';

/** An upstream answer whose headers have arrived; the body is read (or abandoned) by the caller. */
export type UpstreamResponse = {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Readonly<Record<string, string>>;
  /** Read errors arrive as UpstreamFailureError (or the abort reason); breaking out of the loop frees the socket. */
  body: AsyncIterable<Uint8Array>;
};

const timeoutErrorCodes = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * A keep-alive connection pool for one upstream host family, with the connect timeout applied per connection and the
 * SSRF guard checking every address it connects to (`addresses`).
 */
export function createUpstreamAgent(input: {
  connectTimeoutMs: number;
  addresses: UpstreamAddressPolicy;
  keepAliveTimeoutMs?: number;
}): Agent {
  return new Agent({
    connect: createGuardedConnector({ connectTimeoutMs: input.connectTimeoutMs, policy: input.addresses }),
    keepAliveTimeout: input.keepAliveTimeoutMs ?? 30_000,
    // Timeouts per request come from postJson; these only stop undici's own defaults (300 s) from cutting a stream.
    headersTimeout: 0,
    bodyTimeout: 0,
  });
}

/**
 * Sends one upstream call. Connection failures and timeouts become a retryable UpstreamFailureError (status 502, or
 * 504 for a timeout); when `signal` aborts (the client left), the abort reason is rethrown unchanged.
 */
export async function postJson(input: {
  request: UpstreamHttpRequest;
  dispatcher: Dispatcher;
  signal: AbortSignal;
  timeouts: UpstreamTimeouts;
}): Promise<UpstreamResponse> {
  try {
    const response = await request(input.request.url, {
      method: 'POST',
      headers: input.request.headers,
      body: input.request.body,
      dispatcher: input.dispatcher,
      signal: input.signal,
      headersTimeout: input.timeouts.firstByteTimeoutMs,
      bodyTimeout: input.timeouts.idleTimeoutMs,
    });
    return {
      status: response.statusCode,
      headers: flattenHeaders(response.headers),
      body: guardBody(response.body, input.signal),
    };
  } catch (error) {
    throw convertTransportError(error, input.signal);
  }
}

async function* guardBody(body: AsyncIterable<Uint8Array>, signal: AbortSignal): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of body) yield chunk;
  } catch (error) {
    throw convertTransportError(error, signal);
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function convertTransportError(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason ?? error;
  if (error instanceof UpstreamFailureError) return error;
  const code = readErrorCode(error);
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

function readErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
