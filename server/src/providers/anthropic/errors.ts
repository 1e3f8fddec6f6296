import { UpstreamFailureError, type UpstreamFailure } from '../provider-adapter.ts';
import { createUpstreamFailure } from '../shared/create-upstream-failure.ts';
import { parseErrorBody } from '../shared/parse-error-body.ts';
import { anthropicErrorSchema } from './anthropic-api.ts';

/**
 * Anthropic error types → the HTTP status they come with; used for `event: error` mid-stream, where no status
 * arrives. Unknown types count as 500.
 * @see https://docs.anthropic.com/en/api/errors
 */
const statusByErrorType: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/** Anthropic's request field names (they lead its 400 messages: "max_tokens: …") → OpenAI's. */
const paramByAnthropicField: Readonly<Record<string, string>> = {
  max_tokens: 'max_tokens',
  temperature: 'temperature',
  top_p: 'top_p',
  stop_sequences: 'stop',
  messages: 'messages',
  system: 'messages',
  tools: 'tools',
  tool_choice: 'tool_choice',
  thinking: 'reasoning_effort',
  output_config: 'response_format',
  metadata: 'user',
  model: 'model',
};

/**
 * A failed Anthropic response → how to handle it: 401/403, `billing_error` and the 400 Anthropic sends when our
 * prepaid credit is exhausted are our account's; 429, 5xx and 529 `overloaded_error` are transient (with
 * `retry-after`); other 4xx are the request's.
 * @see https://docs.anthropic.com/en/api/errors
 */
export function parseAnthropicError(input: {
  status: number;
  body: unknown;
  headers: Readonly<Record<string, string>>;
}): UpstreamFailure {
  const parsed = parseErrorBody(input.body, anthropicErrorSchema);
  const error = parsed.isStructured ? parsed.error.error : undefined;
  const message = error?.message ?? (parsed.isStructured ? '' : parsed.text);
  return createUpstreamFailure({
    status: input.status,
    headers: input.headers,
    vendorMessage: message,
    param: findParam(message),
    vendorCode: error?.type,
    kind: classifyErrorType(error?.type, message),
  });
}

function classifyErrorType(type: string | undefined, message: string): UpstreamFailure['kind'] | undefined {
  if (type === 'overloaded_error') return 'retryable';
  if (type === 'billing_error' || /credit balance is too low/i.test(message)) return 'credential';
  return undefined;
}

/** `event: error` mid-stream → the failure to throw, its status taken from the error type. */
export function convertStreamError(data: unknown): UpstreamFailureError {
  const parsed = anthropicErrorSchema.safeParse(data);
  const status = parsed.success ? (statusByErrorType[parsed.data.error.type] ?? 500) : 500;
  return new UpstreamFailureError(parseAnthropicError({ status, body: data, headers: {} }));
}

function findParam(message: string): string | undefined {
  const field = /^([a-z_]+)(?:[.\d\w]*)?\s*:/.exec(message)?.[1];
  return field === undefined ? undefined : paramByAnthropicField[field];
}
