import type { z } from 'zod';
import { UpstreamFailureError } from '../provider-adapter.ts';

/**
 * Checks a vendor answer (a response body or one stream event) against its schema. A mismatch means the vendor
 * broke its own wire format: a retryable failure (502), so the pipeline fails over or reports an upstream error.
 */
export function parseVendorBody<T>(schema: z.ZodType<T>, body: unknown, vendorName: string): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new UpstreamFailureError({
    kind: 'retryable',
    status: 502,
    message: `The upstream provider (${vendorName}) sent a response the gateway could not read.`,
    vendorCode: 'unexpected_response',
  });
}

/** A stream that stopped before its end marker (connection cut, vendor crash): the answer is incomplete. */
export function createTruncatedStreamError(vendorName: string): UpstreamFailureError {
  return new UpstreamFailureError({
    kind: 'retryable',
    status: 502,
    message: `The upstream provider (${vendorName}) ended the stream before the answer was complete.`,
    vendorCode: 'stream_truncated',
  });
}
