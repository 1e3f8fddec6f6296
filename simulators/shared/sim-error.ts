/** An error the simulator answers with, before each vendor renders it in its own body shape. */
export type SimError = {
  status: number;
  message: string;
  /** The request field at fault, for vendors whose bodies name one. */
  param: string | null;
  /** A vendor-specific code (`invalid_api_key`, `missing_required_parameter`), or null for the status default. */
  code: string | null;
  /** Overrides the type a vendor derives from the status (e.g. Mistral's `invalid_function_call`). */
  vendorType: string | undefined;
  retryAfterSeconds: number | undefined;
};

export type RenderedError = { status: number; headers: Record<string, string>; body: unknown };

export function createSimError(
  status: number,
  message: string,
  details: { param?: string; code?: string; vendorType?: string; retryAfterSeconds?: number } = {},
): SimError {
  return {
    status,
    message,
    param: details.param ?? null,
    code: details.code ?? null,
    vendorType: details.vendorType,
    retryAfterSeconds: details.retryAfterSeconds,
  };
}

const faultMessages: Readonly<Record<number, string>> = {
  400: 'The request was rejected (simulated fault).',
  401: 'Authentication failed (simulated fault).',
  403: 'Permission denied (simulated fault).',
  404: 'Not found (simulated fault).',
  408: 'Request timed out (simulated fault).',
  429: 'Rate limit reached for requests (simulated fault). Please try again later.',
  500: 'The server had an error while processing your request. Sorry about that!',
  502: 'Bad gateway (simulated fault).',
  503: 'The service is temporarily overloaded (simulated fault). Please try again later.',
  504: 'The request timed out upstream (simulated fault).',
  529: 'Overloaded',
};

/** The error a `status=` fault asks for. */
export function createFaultError(status: number, retryAfterSeconds: number | undefined): SimError {
  const message = faultMessages[status] ?? `Simulated fault with status ${status}.`;
  return createSimError(status, message, retryAfterSeconds === undefined ? {} : { retryAfterSeconds });
}

/** A parsed request, or the error the vendor answers instead. */
export type ParseResult<Value> = { isValid: true; value: Value } | { isValid: false; error: SimError };

export function invalidResult(error: SimError): { isValid: false; error: SimError } {
  return { isValid: false, error };
}
