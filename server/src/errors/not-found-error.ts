import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** A resource other than a model does not exist. */
export class NotFoundError extends GatewayError {
  readonly status = 404;
  readonly type = 'invalid_request_error';

  constructor(message: string, options: GatewayErrorOptions = {}) {
    super(message, { code: 'not_found', ...options });
  }
}
