import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** Every `code` a HeadersTooLargeError may carry, the default first; docs/errors.md lists each (errors/catalog.test.ts). */
export const headersTooLargeCodes = ['headers_too_large'] as const;
export type HeadersTooLargeCode = (typeof headersTooLargeCodes)[number];

/** The request line and headers together are over Node's header size limit (16 KiB unless set otherwise). */
export class HeadersTooLargeError extends GatewayError {
  static readonly codes = headersTooLargeCodes;
  declare readonly code: HeadersTooLargeCode;
  readonly status = 431;
  readonly type = 'invalid_request_error';

  constructor(message: string, options: GatewayErrorOptions<HeadersTooLargeCode> = {}) {
    super(message, { code: 'headers_too_large', ...options });
  }
}
