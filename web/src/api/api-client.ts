import type { z } from 'zod';
import { errorBodySchema } from '../../../contract/errors.ts';

/** A failed API call: the HTTP status (0 when the network failed) and a message fit to show. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;

  constructor(input: { message: string; status: number; code?: string | null }) {
    super(input.message);
    this.name = 'ApiError';
    this.status = input.status;
    this.code = input.code ?? null;
  }
}

/**
 * GETs a JSON endpoint of the gateway's own API and checks the body against its contract schema, so the rest of
 * the app works with typed values. Errors arrive in the OpenAI error shape; anything else becomes an `ApiError`.
 */
export async function getJson<Output>(
  path: string,
  schema: z.ZodType<Output>,
  options: { signal?: AbortSignal } = {},
): Promise<Output> {
  let response: Response;
  try {
    response = await fetch(path, {
      headers: { accept: 'application/json' },
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError({ message: 'network error', status: 0 });
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const errorBody = errorBodySchema.safeParse(body);
    throw new ApiError({
      message: errorBody.success ? errorBody.data.error.message : `HTTP ${response.status}`,
      status: response.status,
      code: errorBody.success ? errorBody.data.error.code : null,
    });
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError({ message: `unexpected response from ${path}`, status: response.status });
  }
  return parsed.data;
}
