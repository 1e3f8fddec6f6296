import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** Every `code` a PermissionDeniedError may carry, the default first; docs/errors.md lists each (errors/catalog.test.ts). */
export const permissionDeniedCodes = [
  'permission_denied',
  'account_blocked',
  'model_not_allowed',
  'operator_only',
  'csrf_token_invalid',
  'key_spend_cap_reached',
  'second_factor_required',
  'totp_enrolment_required',
] as const;
export type PermissionDeniedCode = (typeof permissionDeniedCodes)[number];

/** The caller is known but may not do this (disabled key, model outside the allowlist, not an operator). */
export class PermissionDeniedError extends GatewayError {
  static readonly codes = permissionDeniedCodes;
  declare readonly code: PermissionDeniedCode;
  readonly status = 403;
  readonly type = 'invalid_request_error';

  constructor(message: string, options: GatewayErrorOptions<PermissionDeniedCode> = {}) {
    super(message, { code: 'permission_denied', ...options });
  }
}
