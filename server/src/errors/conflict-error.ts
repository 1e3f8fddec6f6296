import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** The resource already exists (for example a duplicate registration). */
export class ConflictError extends GatewayError {
  readonly status = 409;
  readonly type = 'invalid_request_error';

  constructor(message: string, options: GatewayErrorOptions = {}) {
    super(message, { code: 'conflict', ...options });
  }
}
