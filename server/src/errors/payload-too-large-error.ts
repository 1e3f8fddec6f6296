import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** The request body is over the size limit. */
export class PayloadTooLargeError extends GatewayError {
  readonly status = 413;
  readonly type = 'invalid_request_error';

  constructor(message: string, options: GatewayErrorOptions = {}) {
    super(message, { code: 'payload_too_large', ...options });
  }
}
