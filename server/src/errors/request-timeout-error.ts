import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** Every `code` a RequestTimeoutError may carry, the default first; docs/errors.md lists each (errors/catalog.test.ts). */
export const requestTimeoutCodes = ['request_timeout'] as const;
export type RequestTimeoutCode = (typeof requestTimeoutCodes)[number];

/** The client took longer than Node's request timeout to send the request's head or body. */
export class RequestTimeoutError extends GatewayError {
  static readonly codes = requestTimeoutCodes;
  declare readonly code: RequestTimeoutCode;
  readonly status = 408;
  readonly type = 'invalid_request_error';

  constructor(message: string, options: GatewayErrorOptions<RequestTimeoutCode> = {}) {
    super(message, { code: 'request_timeout', ...options });
  }
}
