import type { SimulatorExchange } from '../shared/simulator-exchange.ts';
import type { RenderedError, SimError } from '../shared/sim-error.ts';

const errorTypes: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/** Anthropic's `error.type` for a status (docs/reference/anthropic.md §Errors); other 4xx are invalid requests, other 5xx API errors. */
export function anthropicErrorType(status: number): string {
  return errorTypes[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/** `{"type":"error","error":{type,message},"request_id"}` with the `request-id` header (docs/reference/anthropic.md §Errors). */
export function renderAnthropicError(error: SimError, exchange: SimulatorExchange): RenderedError {
  const headers: Record<string, string> = { 'request-id': exchange.requestId };
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  return {
    status: error.status,
    headers,
    body: {
      type: 'error',
      error: { type: error.vendorType ?? anthropicErrorType(error.status), message: error.message },
      request_id: exchange.requestId,
    },
  };
}
