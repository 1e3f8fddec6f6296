import type { SimError } from '../shared/sim-error.ts';

/** OpenAI's `type` for a status (docs/reference/openai.md §Errors). */
export function openAiErrorType(status: number): string {
  if (status === 429) return 'requests';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

function defaultCode(status: number): string | null {
  if (status === 401) return 'invalid_api_key';
  if (status === 429) return 'rate_limit_exceeded';
  return null;
}

/** `{"error": {message, type, param, code}}`, all four keys present (docs/reference/openai.md §Errors). */
export function renderOpenAiErrorBody(error: SimError): unknown {
  return {
    error: {
      message: error.message,
      type: error.vendorType ?? openAiErrorType(error.status),
      param: error.param,
      code: error.code ?? defaultCode(error.status),
    },
  };
}
