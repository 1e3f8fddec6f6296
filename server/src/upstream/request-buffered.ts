import { request, type Dispatcher } from 'undici';
import { flattenHeaders } from './flatten-headers.ts';
import { readCappedText } from './read-capped-body.ts';
import { classifyTransportError, UpstreamTransportError } from './upstream-transport-error.ts';

/** One upstream call read whole: a search, a payment provider's API, a token exchange. */
export type UpstreamRequest = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Readonly<Record<string, string>>;
  body?: string;
  /** The whole call, from connecting to the last body byte. */
  timeoutMs: number;
  /** A larger body fails the call with `body_too_large`. */
  maxBodyBytes: number;
  /** The caller's own cancellation; the call then fails with `aborted`. */
  signal?: AbortSignal;
};

export type UpstreamReply = { status: number; headers: Readonly<Record<string, string>>; bodyText: string };

/**
 * Sends one call and reads its whole body as text (in the charset the reply declares, UTF-8 by default), whatever the status (the caller judges it). Every transport
 * failure throws an UpstreamTransportError: `timeout` when `timeoutMs` passes, `aborted` when `request.signal`
 * aborts, `body_too_large` above `maxBodyBytes`, `connection` for anything else on the way. Without a `dispatcher`,
 * undici's global pool is used.
 */
export async function requestBuffered(request: UpstreamRequest, dispatcher?: Dispatcher): Promise<UpstreamReply> {
  const deadline = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal === undefined ? deadline : AbortSignal.any([request.signal, deadline]);
  try {
    const response = await sendRequest(request, { signal, dispatcher });
    const headers = flattenHeaders(response.headers);
    const charset = /charset=([\w-]+)/i.exec(headers['content-type'] ?? '')?.[1];
    const bodyText = await readCappedText(response.body, { maxBytes: request.maxBodyBytes, overflow: 'fail', charset });
    return { status: response.statusCode, headers, bodyText };
  } catch (error) {
    throw convertError(error, { request, deadline });
  }
}

function sendRequest(
  upstreamRequest: UpstreamRequest,
  input: { signal: AbortSignal; dispatcher: Dispatcher | undefined },
): Promise<Dispatcher.ResponseData> {
  return request(upstreamRequest.url, {
    method: upstreamRequest.method,
    headers: upstreamRequest.headers ?? {},
    body: upstreamRequest.body ?? null,
    signal: input.signal,
    headersTimeout: upstreamRequest.timeoutMs,
    bodyTimeout: upstreamRequest.timeoutMs,
    ...(input.dispatcher === undefined ? {} : { dispatcher: input.dispatcher }),
  });
}

function convertError(
  error: unknown,
  input: { request: UpstreamRequest; deadline: AbortSignal },
): UpstreamTransportError {
  if (error instanceof UpstreamTransportError) return error;
  const callerSignal = input.request.signal;
  if (callerSignal?.aborted === true) {
    return new UpstreamTransportError({
      kind: 'aborted',
      code: 'cancelled',
      message: 'The call was cancelled before the upstream answered.',
      cause: callerSignal.reason,
    });
  }
  if (input.deadline.aborted) {
    return new UpstreamTransportError({
      kind: 'timeout',
      code: 'deadline_exceeded',
      message: `The upstream did not answer within ${input.request.timeoutMs} ms.`,
    });
  }
  return classifyTransportError(error);
}
