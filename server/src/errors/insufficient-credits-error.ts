import { GatewayError, type GatewayErrorOptions } from './gateway-error.ts';

/** The balance cannot cover even the input of the request. Never 429: SDKs retry 429 on their own. */
export class InsufficientCreditsError extends GatewayError {
  readonly status = 402;
  readonly type = 'insufficient_quota';

  constructor(message: string, options: GatewayErrorOptions = {}) {
    super(message, { code: 'insufficient_credits', ...options });
  }
}
