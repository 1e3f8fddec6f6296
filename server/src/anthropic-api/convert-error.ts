import type { GatewayError } from '../errors/gateway-error.ts';
import type { ErrorBody, ErrorType } from './message-object.ts';

/**
 * The Anthropic error type for a gateway error's HTTP status (docs/reference/anthropic.md §Errors); the status itself is kept.
 * An empty balance (402) is `billing_error`, as Anthropic reports it; a busy gateway (503) is `overloaded_error`,
 * which Anthropic sends with 529.
 * @see https://docs.anthropic.com/en/api/errors
 */
export function mapErrorType(status: number): ErrorType {
  const errorTypes: Readonly<Record<number, ErrorType>> = {
    401: 'authentication_error',
    402: 'billing_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    503: 'overloaded_error',
    504: 'timeout_error',
  };
  return errorTypes[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/** `{"type":"error","error":{"type","message"},"request_id"}`: the body of an error response or of an `error` event. */
export function convertError(error: GatewayError, requestId: string): ErrorBody {
  return {
    type: 'error',
    error: { type: mapErrorType(error.status), message: convertMessage(error) },
    request_id: requestId,
  };
}

/**
 * Anthropic's own texts for a refused key: Anthropic's clients look for them (Claude Code stops retrying and asks for
 * a new key on `invalid x-api-key`; with any other text it retries for minutes).
 * @see https://docs.anthropic.com/en/api/errors
 */
function convertMessage(error: GatewayError): string {
  if (error.status !== 401) return error.message;
  return error.code === 'missing_api_key' ? 'x-api-key header is required' : 'invalid x-api-key';
}
