import type { Dispatcher } from 'undici';
import { UpstreamFailureError } from '../../../providers/provider-adapter.ts';
import { convertTransportError, type UpstreamResponse } from '../../../providers/shared/post-json.ts';
import type { UpstreamTimeouts } from '../../../providers/shared/upstream-timeouts.ts';
import { readCappedBytes } from '../../../upstream/read-capped-body.ts';
import { requestStreaming } from '../../../upstream/request-streaming.ts';
import { UpstreamTransportError } from '../../../upstream/upstream-transport-error.ts';

/**
 * A GET to a vendor (a poll or an image download), the counterpart of `postJson` with the same failure rules:
 * connection failures and timeouts become a retryable UpstreamFailureError (502, or 504 for a timeout); when
 * `signal` aborts, its reason is rethrown unchanged.
 */
export function getUpstream(input: {
  url: string;
  headers: Record<string, string>;
  dispatcher: Dispatcher;
  signal: AbortSignal;
  timeouts: UpstreamTimeouts;
}): Promise<UpstreamResponse> {
  return requestStreaming(
    {
      method: 'GET',
      request: { url: input.url, headers: input.headers },
      dispatcher: input.dispatcher,
      signal: input.signal,
      timeouts: input.timeouts,
    },
    convertTransportError,
  );
}

/** A whole binary body (an image) from `getUpstream`, refused as an upstream failure above `maxBytes`. */
export async function readUpstreamBytes(body: AsyncIterable<Uint8Array>, input: { maxBytes: number }): Promise<Buffer> {
  try {
    return await readCappedBytes(body, input);
  } catch (error) {
    if (!(error instanceof UpstreamTransportError && error.kind === 'body_too_large')) throw error;
    throw new UpstreamFailureError({
      kind: 'retryable',
      status: 502,
      message: 'The upstream provider sent an image larger than the gateway accepts.',
      vendorCode: 'image_too_large',
    });
  }
}
