import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** Every `code` a PayloadTooLargeError may carry, the default first; docs/errors.md lists each (errors/catalog.test.ts). */
export const payloadTooLargeCodes = ['payload_too_large'] as const;
export type PayloadTooLargeCode = (typeof payloadTooLargeCodes)[number];

/** The request body is over the size limit. */
export class PayloadTooLargeError extends GatewayError {
  static readonly codes = payloadTooLargeCodes;
  declare readonly code: PayloadTooLargeCode;
  readonly status = 413;
  readonly type = 'invalid_request_error';

  constructor(message: string, options: GatewayErrorOptions<PayloadTooLargeCode> = {}) {
    super(message, { code: 'payload_too_large', ...options });
  }
}
