import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** The caller is known but may not do this (disabled key, model outside the allowlist, not an operator). */
export class PermissionDeniedError extends GatewayError {
  readonly status = 403;
  readonly type = 'invalid_request_error';

  constructor(message: string, options: GatewayErrorOptions = {}) {
    super(message, { code: 'permission_denied', ...options });
  }
}
