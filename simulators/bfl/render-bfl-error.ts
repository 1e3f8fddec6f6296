import type { RenderedError, SimError } from '../shared/sim-error.ts';

/**
 * Black Forest Labs answers errors the way its FastAPI service does: `{"detail": "<message>"}`, and a 422 for a body
 * that fails validation with pydantic's list `{"detail": [{"loc": [...], "msg", "type"}]}`.
 * @see https://docs.bfl.ai/api_integration/errors
 */
export function renderBflError(error: SimError): RenderedError {
  const headers: Record<string, string> =
    error.retryAfterSeconds === undefined ? {} : { 'retry-after': String(error.retryAfterSeconds) };
  if (error.status === 422 && error.param !== null) {
    const detail = [{ loc: ['body', error.param], msg: error.message, type: error.code ?? 'value_error' }];
    return { status: 422, headers, body: { detail } };
  }
  return { status: error.status, headers, body: { detail: error.message } };
}
