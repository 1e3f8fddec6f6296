import { request, type Dispatcher } from 'undici';
import { flattenHeaders } from './flatten-headers.ts';
import { classifyTransportError, type UpstreamTransportError } from './upstream-transport-error.ts';

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
    return {
      status: response.statusCode,
      headers: flattenHeaders(response.headers),
      body: guardBody(response.body, input.signal, mapError),
    };
  } catch (error) {
    throw convertError(error, input.signal, mapError);
  }
}

async function* guardBody(
  body: AsyncIterable<Uint8Array>,
  signal: AbortSignal,
  mapError: MapTransportError,
): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of body) yield chunk;
  } catch (error) {
    throw convertError(error, signal, mapError);
  }
}

function convertError(error: unknown, signal: AbortSignal, mapError: MapTransportError): unknown {
  if (signal.aborted) return signal.reason ?? error;
  return mapError(classifyTransportError(error));
}
