import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** The request itself is wrong; `param` names the offending field. */
export class InvalidRequestError extends GatewayError {
  readonly status = 400;
  readonly type = 'invalid_request_error';

  constructor(message: string, options: GatewayErrorOptions = {}) {
    super(message, { code: 'invalid_value', ...options });
  }
}
