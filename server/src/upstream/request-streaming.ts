import { request, type Dispatcher } from 'undici';
import { flattenHeaders } from './flatten-headers.ts';
import { convertTransportFailure, GuardedBody } from './guarded-body.ts';
import type { UpstreamTransportError } from './upstream-transport-error.ts';

/** One upstream call whose body is read as it arrives (a chat stream, an image download). */
export type StreamingRequest = {
  /** POST unless set: chat and image calls post JSON; polls and downloads say GET. */
  method?: 'GET' | 'POST';
  request: { url: string; headers: Readonly<Record<string, string>>; body?: string };
  dispatcher: Dispatcher;
  /** The caller's signal (the client left): its reason is rethrown unchanged, never classified. */
  signal: AbortSignal;
  timeouts: {
    /** From sending the request to receiving the response headers. */
    firstByteTimeoutMs: number;
    /** The longest silence between two chunks of the body. */
    idleTimeoutMs: number;
  };
};

/** An upstream answer whose headers have arrived; the body is read (or abandoned) by the caller. */
export type StreamingReply = {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Readonly<Record<string, string>>;
  /** Read errors arrive already mapped (or as the abort reason); breaking out of the loop frees the socket. */
  body: AsyncIterable<Uint8Array>;
};

/** Turns a classified transport failure into the caller's own error (a provider's, an image client's). */
export type MapTransportError = (error: UpstreamTransportError) => unknown;

/**
 * Sends one call and returns at the headers. This is the chat hot path: one undici call, no extra awaits, and the
 * caller's own input object passed straight through; pass a module-level `mapError` so nothing is allocated for it.
 */
export async function requestStreaming(input: StreamingRequest, mapError: MapTransportError): Promise<StreamingReply> {
  try {
    const response = await request(input.request.url, {
      method: input.method ?? 'POST',
      headers: input.request.headers,
      body: input.request.body ?? null,
      dispatcher: input.dispatcher,
      signal: input.signal,
      headersTimeout: input.timeouts.firstByteTimeoutMs,
      bodyTimeout: input.timeouts.idleTimeoutMs,
    });
    const rawHeaders = response.headers;
    let headers: Readonly<Record<string, string>> | undefined;
    return {
      status: response.statusCode,
      // Read on failures and by a few callers only; a chat answer's path never flattens them.
      get headers() {
        headers ??= flattenHeaders(rawHeaders);
        return headers;
      },
      body: new GuardedBody({ stream: response.body, signal: input.signal, mapError }),
    };
  } catch (error) {
    throw convertTransportFailure(error, input.signal, mapError);
  }
}
