import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** Every `code` an AuthenticationError may carry, the default first; docs/errors.md lists each (errors/catalog.test.ts). */
export const authenticationCodes = [
  'invalid_api_key',
  'missing_api_key',
  'expired_api_key',
  'invalid_credentials',
  'not_signed_in',
] as const;
export type AuthenticationCode = (typeof authenticationCodes)[number];

/** The API key or session is missing, malformed, unknown, revoked or expired. */
export class AuthenticationError extends GatewayError {
  static readonly codes = authenticationCodes;
  declare readonly code: AuthenticationCode;
  readonly status = 401;
  readonly type = 'invalid_request_error';

  constructor(message: string, options: GatewayErrorOptions<AuthenticationCode> = {}) {
    super(message, { code: 'invalid_api_key', ...options });
  }
}
