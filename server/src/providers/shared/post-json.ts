import type { Dispatcher } from 'undici';
import { requestStreaming, type StreamingReply } from '../../upstream/request-streaming.ts';
import { requestWhole, type WholeReply } from '../../upstream/request-whole.ts';
import type { UpstreamTransportError } from '../../upstream/upstream-transport-error.ts';
import { UpstreamFailureError, type UpstreamHttpRequest } from '../provider-adapter.ts';
import type { UpstreamTimeouts } from './upstream-timeouts.ts';

/** An upstream answer whose headers have arrived; the body is read (or abandoned) by the caller. */
export type UpstreamResponse = StreamingReply;

/** An upstream answer read whole (`postJsonWhole`): its body is only read whole, by `readUpstreamBody`. */
export type UpstreamWholeResponse = WholeReply;

export type PostJsonInput = {
  request: UpstreamHttpRequest;
  dispatcher: Dispatcher;
  signal: AbortSignal;
  timeouts: UpstreamTimeouts;
};

/**
 * Sends one upstream call. Connection failures and timeouts become a retryable UpstreamFailureError (status 502, or
 * 504 for a timeout); when `signal` aborts (the client left), the abort reason is rethrown unchanged.
 */
export function postJson(input: PostJsonInput): Promise<UpstreamResponse> {
  return requestStreaming(input, convertTransportError);
}

/** `postJson` for an answer read whole (not streamed): the same failures, the body read by `readUpstreamBody`. */
export function postJsonWhole(input: PostJsonInput): Promise<UpstreamWholeResponse> {
  return requestWhole(input, convertTransportError);
}

/** A transport failure is the route failing: the call may go to another route. */
export function convertTransportError(error: UpstreamTransportError): UpstreamFailureError {
  const isTimeout = error.kind === 'timeout';
  return new UpstreamFailureError({
    kind: 'retryable',
    status: isTimeout ? 504 : 502,
    message: isTimeout
      ? 'The upstream provider did not answer in time.'
      : 'The upstream provider could not be reached.',
    vendorCode: error.code,
  });
}
