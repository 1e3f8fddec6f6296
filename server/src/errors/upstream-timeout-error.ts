import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** Every `code` an UpstreamTimeoutError may carry, the default first; docs/errors.md lists each (errors/catalog.test.ts). */
export const upstreamTimeoutCodes = ['upstream_timeout'] as const;
export type UpstreamTimeoutCode = (typeof upstreamTimeoutCodes)[number];

/** Every upstream route timed out. */
export class UpstreamTimeoutError extends GatewayError {
  static readonly codes = upstreamTimeoutCodes;
  declare readonly code: UpstreamTimeoutCode;
  readonly status = 504;
  readonly type = 'server_error';

  constructor(message: string, options: GatewayErrorOptions<UpstreamTimeoutCode> = {}) {
    super(message, { code: 'upstream_timeout', ...options });
  }
}
