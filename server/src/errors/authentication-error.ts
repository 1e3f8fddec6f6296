import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** The API key or session is missing, malformed, unknown, revoked or expired. */
export class AuthenticationError extends GatewayError {
  readonly status = 401;
  readonly type = 'invalid_request_error';

  constructor(message: string, options: GatewayErrorOptions = {}) {
    super(message, { code: 'invalid_api_key', ...options });
  }
}
