import type { z } from 'zod';
import { errorBodySchema } from '../../../contract/errors.ts';

/** A failed API call: the HTTP status (0 when the network failed) and a message fit to show. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly param: string | null;

  constructor(input: { message: string; status: number; code?: string | null; param?: string | null }) {
    super(input.message);
    this.name = 'ApiError';
    this.status = input.status;
    this.code = input.code ?? null;
    this.param = input.param ?? null;
  }
}

export type RequestOptions = { signal?: AbortSignal };

/** Told of every 401 from the account API, so the app can send the user back to sign-in (set by the session). */
let onSessionEnded: ((error: ApiError) => void) | undefined;
/** The CSRF token of the signed-in session, sent in `x-csrf-token` on every state-changing call. */
let csrfToken: string | undefined;

export function setSessionHooks(hooks: { csrfToken: string | undefined; onSessionEnded?: (error: ApiError) => void }) {
  csrfToken = hooks.csrfToken;
  onSessionEnded = hooks.onSessionEnded;
}

/**
 * GETs a JSON endpoint of the gateway's own API and checks the body against its contract schema, so the rest of
 * the app works with typed values. Errors arrive in the OpenAI error shape; anything else becomes an `ApiError`.
 */
export function getJson<Output>(
  path: string,
  schema: z.ZodType<Output>,
  options: RequestOptions = {},
): Promise<Output> {
  return requestJson(path, schema, { method: 'GET', ...options });
}

/** A state-changing call with a JSON body (or none), carrying the session's CSRF token. */
export function sendJson<Output>(
  path: string,
  schema: z.ZodType<Output>,
  options: RequestOptions & { method: 'POST' | 'PUT' | 'PATCH' | 'DELETE'; body?: unknown },
): Promise<Output> {
  return requestJson(path, schema, options);
}

async function requestJson<Output>(
  path: string,
  schema: z.ZodType<Output>,
  options: RequestOptions & { method: string; body?: unknown },
): Promise<Output> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.method !== 'GET' && csrfToken !== undefined) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method,
      headers,
      credentials: 'same-origin',
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError({ message: 'network error', status: 0, code: 'network_error' });
  }
  const body: unknown = response.status === 204 ? {} : await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = toApiError(body, response.status);
    if (response.status === 401 && error.code === 'not_signed_in') onSessionEnded?.(error);
    throw error;
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError({ message: `unexpected response from ${path}`, status: response.status });
  }
  return parsed.data;
}

/** The `ApiError` for an error response's body (the OpenAI error shape, or anything else). */
export function toApiError(body: unknown, status: number): ApiError {
  const errorBody = errorBodySchema.safeParse(body);
  return new ApiError({
    message: errorBody.success ? errorBody.data.error.message : `HTTP ${status}`,
    status,
    code: errorBody.success ? errorBody.data.error.code : null,
    param: errorBody.success ? errorBody.data.error.param : null,
  });
}
