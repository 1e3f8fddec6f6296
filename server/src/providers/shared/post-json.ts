import type { Dispatcher } from 'undici';
import { requestStreaming, type StreamingReply } from '../../upstream/request-streaming.ts';
import type { UpstreamTransportError } from '../../upstream/upstream-transport-error.ts';
import { UpstreamFailureError, type UpstreamHttpRequest } from '../provider-adapter.ts';
import type { UpstreamTimeouts } from './upstream-timeouts.ts';

/** An upstream answer whose headers have arrived; the body is read (or abandoned) by the caller. */
export type UpstreamResponse = StreamingReply;

/**
 * Sends one upstream call. Connection failures and timeouts become a retryable UpstreamFailureError (status 502, or
 * 504 for a timeout); when `signal` aborts (the client left), the abort reason is rethrown unchanged.
 */
export function postJson(input: {
  request: UpstreamHttpRequest;
  dispatcher: Dispatcher;
  signal: AbortSignal;
  timeouts: UpstreamTimeouts;
}): Promise<UpstreamResponse> {
  return requestStreaming(input, convertTransportError);
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
