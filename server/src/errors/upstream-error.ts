import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** Every upstream route failed (or none is available). */
export class UpstreamError extends GatewayError {
  readonly status = 502;
  readonly type = 'server_error';

  constructor(message: string, options: GatewayErrorOptions = {}) {
    super(message, { code: 'upstream_error', ...options });
  }
}
