import { AuthenticationError } from './authentication-error.ts';
import { ConflictError } from './conflict-error.ts';
import { InsufficientCreditsError } from './insufficient-credits-error.ts';
import { InternalError } from './internal-error.ts';
import { InvalidRequestError } from './invalid-request-error.ts';
import { ModelNotFoundError } from './model-not-found-error.ts';
import { NotFoundError } from './not-found-error.ts';
import { PayloadTooLargeError } from './payload-too-large-error.ts';
import { PermissionDeniedError } from './permission-denied-error.ts';
import { RateLimitError } from './rate-limit-error.ts';
import { ServiceUnavailableError } from './service-unavailable-error.ts';
import { UpstreamError } from './upstream-error.ts';
import { UpstreamTimeoutError } from './upstream-timeout-error.ts';
import { HeadersTooLargeError } from './headers-too-large-error.ts';
import { RequestTimeoutError } from './request-timeout-error.ts';
import { UriTooLongError } from './uri-too-long-error.ts';

export {
  AuthenticationError,
  ConflictError,
  InsufficientCreditsError,
  InternalError,
  InvalidRequestError,
  ModelNotFoundError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  ServiceUnavailableError,
  UpstreamError,
  UpstreamTimeoutError,
  HeadersTooLargeError,
  RequestTimeoutError,
  UriTooLongError,
};
export { GatewayError } from './gateway-error.ts';

/** Every error class a client can receive, each with its closed list of codes (`codes`). */
export const errorClasses = [
  InvalidRequestError,
  AuthenticationError,
  InsufficientCreditsError,
  PermissionDeniedError,
  NotFoundError,
  ModelNotFoundError,
  ConflictError,
  PayloadTooLargeError,
  RequestTimeoutError,
  UriTooLongError,
  HeadersTooLargeError,
  RateLimitError,
  InternalError,
  UpstreamError,
  ServiceUnavailableError,
  UpstreamTimeoutError,
] as const;

/** One sample of every error class; a test checks these against docs/errors.md. */
export function listErrorSamples() {
  return [
    new InvalidRequestError('sample'),
    new AuthenticationError('sample'),
    new InsufficientCreditsError('sample'),
    new PermissionDeniedError('sample'),
    new NotFoundError('sample'),
    new ModelNotFoundError('sample'),
    new ConflictError('sample'),
    new PayloadTooLargeError('sample'),
    new RequestTimeoutError('sample'),
    new UriTooLongError('sample'),
    new HeadersTooLargeError('sample'),
    new RateLimitError('sample', { retryAfterSeconds: 1, limitKind: 'requests' }),
    new InternalError('sample'),
    new UpstreamError('sample'),
    new ServiceUnavailableError('sample'),
    new UpstreamTimeoutError('sample'),
  ];
}
