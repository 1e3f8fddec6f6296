import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** Every `code` an UpstreamError may carry, the default first; docs/errors.md lists each (errors/catalog.test.ts). */
export const upstreamCodes = [
  'upstream_error',
  'upstream_rate_limited',
  'upstream_stream_error',
  'no_route_available',
  'invalid_tool_input',
  'payment_provider_unavailable',
] as const;
export type UpstreamCode = (typeof upstreamCodes)[number];

/** Every upstream route failed (or none is available). */
export class UpstreamError extends GatewayError {
  static readonly codes = upstreamCodes;
  declare readonly code: UpstreamCode;
  readonly status = 502;
  readonly type = 'server_error';

  constructor(message: string, options: GatewayErrorOptions<UpstreamCode> = {}) {
    super(message, { code: 'upstream_error', ...options });
  }
}
