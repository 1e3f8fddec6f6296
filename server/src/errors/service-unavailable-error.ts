import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** Every `code` a ServiceUnavailableError may carry, the default first; docs/errors.md lists each (errors/catalog.test.ts). */
export const serviceUnavailableCodes = ['service_unavailable', 'exchange_rate_unavailable'] as const;
export type ServiceUnavailableCode = (typeof serviceUnavailableCodes)[number];

/** The gateway is shutting down or a dependency (database) is not ready. */
export class ServiceUnavailableError extends GatewayError {
  static readonly codes = serviceUnavailableCodes;
  declare readonly code: ServiceUnavailableCode;
  readonly status = 503;
  readonly type = 'server_error';

  constructor(message: string, options: GatewayErrorOptions<ServiceUnavailableCode> = {}) {
    super(message, { code: 'service_unavailable', ...options });
  }
}
