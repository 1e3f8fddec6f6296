import { GatewayError } from '../errors/gateway-error.ts';
import { UpstreamError } from '../errors/upstream-error.ts';
import { UpstreamFailureError } from '../providers/provider-adapter.ts';

/** The error a stream that broke off after its first byte ends with, in-stream (chat, Messages and Responses alike). */
export function toStreamError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  const message =
    error instanceof UpstreamFailureError
      ? `The upstream provider failed mid-stream: ${error.failure.message}`
      : 'The upstream stream broke off.';
  return new UpstreamError(message, { code: 'upstream_stream_error' });
}
