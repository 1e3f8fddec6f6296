import { UpstreamFailureError } from '../../providers/provider-adapter.ts';

/** An answer without one vector per input is the route's fault: fail over. */
export function refuseMalformedAnswer(): never {
  throw new UpstreamFailureError({
    kind: 'retryable',
    status: 502,
    message: 'The upstream provider answered without one embedding per input.',
    vendorCode: 'malformed_embeddings',
  });
}
