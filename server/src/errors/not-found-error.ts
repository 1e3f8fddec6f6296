import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** Every `code` a NotFoundError may carry, the default first; docs/errors.md lists each (errors/catalog.test.ts). */
export const notFoundCodes = ['not_found'] as const;
export type NotFoundCode = (typeof notFoundCodes)[number];

/** A resource other than a model does not exist. */
export class NotFoundError extends GatewayError {
  static readonly codes = notFoundCodes;
  declare readonly code: NotFoundCode;
  readonly status = 404;
  readonly type = 'invalid_request_error';

  constructor(message: string, options: GatewayErrorOptions<NotFoundCode> = {}) {
    super(message, { code: 'not_found', ...options });
  }
}
