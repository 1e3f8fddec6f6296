import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** Every `code` an InsufficientCreditsError may carry, the default first; docs/errors.md lists each (errors/catalog.test.ts). */
export const insufficientCreditsCodes = ['insufficient_credits', 'key_budget_exceeded'] as const;
export type InsufficientCreditsCode = (typeof insufficientCreditsCodes)[number];

/** The balance (or the key's day or month budget) cannot cover the request. Never 429: SDKs retry 429 on their own. */
export class InsufficientCreditsError extends GatewayError {
  static readonly codes = insufficientCreditsCodes;
  declare readonly code: InsufficientCreditsCode;
  readonly status = 402;
  readonly type = 'insufficient_quota';

  constructor(message: string, options: GatewayErrorOptions<InsufficientCreditsCode> = {}) {
    super(message, { code: 'insufficient_credits', ...options });
  }
}
