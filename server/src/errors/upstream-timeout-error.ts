import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** Every upstream route timed out. */
export class UpstreamTimeoutError extends GatewayError {
  readonly status = 504;
  readonly type = 'server_error';

  constructor(message: string, options: GatewayErrorOptions = {}) {
    super(message, { code: 'upstream_timeout', ...options });
  }
}
