import type { SimulatorExchange } from '../shared/simulator-exchange.ts';
import type { RenderedError, SimError } from '../shared/sim-error.ts';

const rpcStatuses: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  408: 'DEADLINE_EXCEEDED',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export function rpcStatus(status: number): string {
  return rpcStatuses[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
}

/**
 * The Google RPC error body (docs/reference/gemini.md §Errors). A 429 carries a QuotaFailure, and a RetryInfo when a retry delay
 * is known: Gemini puts the delay in the body, not in a Retry-After header.
 */
export function renderGeminiError(error: SimError, _exchange: SimulatorExchange): RenderedError {
  const details: Record<string, unknown>[] = [];
  if (error.code === 'API_KEY_INVALID') {
    details.push(
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'API_KEY_INVALID',
        domain: 'googleapis.com',
        metadata: { service: 'generativelanguage.googleapis.com' },
      },
      { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message: error.message },
    );
  }
  if (error.status === 429) {
    details.push({
      '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
      violations: [
        {
          quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
          quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier',
          quotaValue: '10',
        },
      ],
    });
  }
  if (error.retryAfterSeconds !== undefined) {
    details.push({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${error.retryAfterSeconds}s` });
  }
  const body: Record<string, unknown> = { code: error.status, message: error.message, status: rpcStatus(error.status) };
  if (details.length > 0) body['details'] = details;
  return { status: error.status, headers: {}, body: { error: body } };
}
