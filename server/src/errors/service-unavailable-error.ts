import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** The gateway is shutting down or a dependency (database) is not ready. */
export class ServiceUnavailableError extends GatewayError {
  readonly status = 503;
  readonly type = 'server_error';

  constructor(message: string, options: GatewayErrorOptions = {}) {
    super(message, { code: 'service_unavailable', ...options });
  }
}
