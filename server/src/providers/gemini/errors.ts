import { UpstreamFailureError, type UpstreamFailure } from '../provider-adapter.ts';
import { createUpstreamFailure } from '../shared/create-upstream-failure.ts';
import { parseErrorBody } from '../shared/parse-error-body.ts';
import { parseDurationMs } from '../shared/parse-retry-after.ts';
import { geminiErrorSchema, type GeminiError } from './gemini-api.ts';

/** Gemini request field paths (camelCase or snake_case, as its messages use either) → OpenAI parameter names. */
const paramByGeminiField: ReadonlyArray<readonly [RegExp, string]> = [
  [/generation_?config\.temperature/i, 'temperature'],
  [/generation_?config\.top_?p/i, 'top_p'],
  [/generation_?config\.max_?output_?tokens/i, 'max_tokens'],
  [/generation_?config\.stop_?sequences/i, 'stop'],
  [/generation_?config\.seed/i, 'seed'],
  [/generation_?config\.presence_?penalty/i, 'presence_penalty'],
  [/generation_?config\.frequency_?penalty/i, 'frequency_penalty'],
  [/generation_?config\.response_?(?:mime_?type|json_?schema|schema)/i, 'response_format'],
  [/generation_?config\.thinking_?config/i, 'reasoning_effort'],
  [/tool_?config/i, 'tool_choice'],
  [/\btools\b|function_?declarations/i, 'tools'],
  [/\bcontents\b|system_?instruction/i, 'messages'],
];

/**
 * A failed Gemini response → how to handle it. Gemini answers a bad key with 400 `INVALID_ARGUMENT` and reason
 * `API_KEY_INVALID`, and an unusable account or region with `FAILED_PRECONDITION`: both are our route's fault.
 * `RetryInfo.retryDelay` in the body gives the wait on 429.
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 */
export function parseGeminiError(input: {
  status: number;
  body: unknown;
  headers: Readonly<Record<string, string>>;
}): UpstreamFailure {
  const parsed = parseErrorBody(input.body, geminiErrorSchema);
  const error = parsed.isStructured ? parsed.error.error : undefined;
  const details = error?.details ?? [];
  const isOurAccount =
    error?.status === 'FAILED_PRECONDITION' || details.some((detail) => detail.reason === 'API_KEY_INVALID');
  const retryDelay = details.find((detail) => typeof detail.retryDelay === 'string')?.retryDelay;
  return createUpstreamFailure({
    status: input.status,
    headers: input.headers,
    vendorMessage: error?.message ?? (parsed.isStructured ? '' : parsed.text),
    param: error === undefined ? undefined : findParam(error),
    vendorCode: error?.status ?? undefined,
    kind: isOurAccount ? 'credential' : undefined,
    retryAfterMs: typeof retryDelay === 'string' ? parseDurationMs(retryDelay) : undefined,
  });
}

export function isErrorEvent(data: unknown): boolean {
  return typeof data === 'object' && data !== null && 'error' in data && Boolean(data.error);
}

/** `data: {"error": {…}}` after the headers → the failure to throw, with the status from `error.code`. */
export function convertStreamError(data: unknown): UpstreamFailureError {
  const parsed = geminiErrorSchema.safeParse(data);
  const status = parsed.success ? (parsed.data.error.code ?? 500) : 500;
  return new UpstreamFailureError(parseGeminiError({ status, body: data, headers: {} }));
}

function findParam(error: GeminiError): string | undefined {
  const fields = (error.details ?? [])
    .flatMap((detail) => detail.fieldViolations ?? [])
    .map((violation) => violation.field);
  const haystack = [...fields, error.message].filter((text) => typeof text === 'string').join(' ');
  return paramByGeminiField.find(([pattern]) => pattern.test(haystack))?.[1];
}
