import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** Every `code` a UriTooLongError may carry, the default first; docs/errors.md lists each (errors/catalog.test.ts). */
export const uriTooLongCodes = ['uri_too_long'] as const;
export type UriTooLongCode = (typeof uriTooLongCodes)[number];

/** A path parameter (an id in the URL) is longer than any id the gateway issues. */
export class UriTooLongError extends GatewayError {
  static readonly codes = uriTooLongCodes;
  declare readonly code: UriTooLongCode;
  readonly status = 414;
  readonly type = 'invalid_request_error';

  constructor(message: string, options: GatewayErrorOptions<UriTooLongCode> = {}) {
    super(message, { code: 'uri_too_long', ...options });
  }
}
