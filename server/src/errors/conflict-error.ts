import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** Every `code` a ConflictError may carry, the default first; docs/errors.md lists each (errors/catalog.test.ts). */
export const conflictCodes = [
  'conflict',
  'email_taken',
  'version_conflict',
  'subscription_running',
  'subscription_ended',
  'idempotency_key_reused',
  'already_credited',
  'payment_in_flight',
  'balance_remaining',
  'not_refundable',
  'model_exists',
] as const;
export type ConflictCode = (typeof conflictCodes)[number];

/** The resource already exists (for example a duplicate registration). */
export class ConflictError extends GatewayError {
  static readonly codes = conflictCodes;
  declare readonly code: ConflictCode;
  readonly status = 409;
  readonly type = 'invalid_request_error';

  constructor(message: string, options: GatewayErrorOptions<ConflictCode> = {}) {
    super(message, { code: 'conflict', ...options });
  }
}
