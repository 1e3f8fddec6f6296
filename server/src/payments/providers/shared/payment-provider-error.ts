import type { PaymentProviderId } from '../../payment-provider.ts';

/**
 * A provider API call that failed: the provider refused it, answered something we cannot read, or could not be
 * reached. `isRetryable` says whether the same call (same idempotency key) may succeed later; the message names the
 * provider and the HTTP status only, never a key or a card detail.
 */
export class PaymentProviderError extends Error {
  readonly providerId: PaymentProviderId;
  readonly httpStatus: number | undefined;
  readonly isRetryable: boolean;
  constructor(input: {
    providerId: PaymentProviderId;
    httpStatus: number | undefined;
    isRetryable: boolean;
    detail: string;
  }) {
    super(`${input.providerId}: ${input.detail}`);
    this.name = 'PaymentProviderError';
    this.providerId = input.providerId;
    this.httpStatus = input.httpStatus;
    this.isRetryable = input.isRetryable;
  }
}
