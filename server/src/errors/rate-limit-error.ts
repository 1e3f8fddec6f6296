import { GatewayError } from './gateway-error.ts';

/** Every `code` a RateLimitError may carry; docs/errors.md lists it (errors/catalog.test.ts). */
export const rateLimitCodes = ['rate_limit_exceeded'] as const;
export type RateLimitCode = (typeof rateLimitCodes)[number];

/** A per-key or per-account limit was hit. Always carries `Retry-After` (whole seconds, at least 1). */
export class RateLimitError extends GatewayError {
  static readonly codes = rateLimitCodes;
  declare readonly code: RateLimitCode;
  readonly status = 429;
  readonly type: 'requests' | 'tokens';

  constructor(
    message: string,
    options: { retryAfterSeconds: number; limitKind: 'requests' | 'tokens'; headers?: Record<string, string> },
  ) {
    super(message, {
      code: 'rate_limit_exceeded',
      headers: { ...options.headers, 'retry-after': String(Math.max(1, Math.ceil(options.retryAfterSeconds))) },
    });
    this.type = options.limitKind;
  }
}
