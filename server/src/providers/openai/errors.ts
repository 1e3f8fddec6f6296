import { UpstreamFailureError, type UpstreamFailure } from '../provider-adapter.ts';
import { createUpstreamFailure } from '../shared/create-upstream-failure.ts';
import { parseErrorBody } from '../shared/parse-error-body.ts';
import type { DialectError, DialectQuirks } from './dialect-quirks.ts';
import { openAiErrorBodySchema } from './openai-api.ts';

type ErrorHooks = Pick<DialectQuirks, 'readErrorBody'>;

/**
 * A failed OpenAI-dialect response → how to handle it. `insufficient_quota` (a 429 from OpenAI) means our vendor
 * account ran out of money: a route problem, not a transient one.
 * @see https://platform.openai.com/docs/guides/error-codes/api-errors
 */
export function parseDialectError(
  input: { status: number; body: unknown; headers: Readonly<Record<string, string>> },
  quirks: ErrorHooks,
): UpstreamFailure {
  const read = readDialectError(input.body, quirks);
  const error = read.error;
  const isQuotaExhausted = error?.code === 'insufficient_quota' || error?.type === 'insufficient_quota';
  return createUpstreamFailure({
    status: input.status,
    headers: input.headers,
    vendorMessage: error?.message ?? read.text,
    param: error?.param,
    vendorCode: error?.code ?? error?.type,
    kind: isQuotaExhausted ? 'credential' : undefined,
  });
}

/**
 * A data event with a top-level `error` (OpenAI's mid-stream error, docs/reference/openai.md §Streaming) → the failure to throw. No
 * HTTP status comes with it, so one is inferred from the error body.
 */
export function convertMidStreamError(data: unknown, quirks: ErrorHooks): UpstreamFailureError {
  const error = readDialectError(data, quirks).error;
  const status = error?.status ?? inferStatus(error);
  return new UpstreamFailureError(parseDialectError({ status, body: data, headers: {} }, quirks));
}

/**
 * Whether a data event (or a 2xx body) is an error: a truthy top-level `error` (what the OpenAI SDKs treat as one),
 * or a body in a vendor's own error shape (vLLM streams unwrapped `{"object":"error",…}` errors).
 */
export function isErrorEvent(data: unknown, quirks: ErrorHooks): boolean {
  const hasErrorKey = typeof data === 'object' && data !== null && 'error' in data && Boolean(data.error);
  return hasErrorKey || quirks.readErrorBody(data) !== undefined;
}

function readDialectError(body: unknown, quirks: ErrorHooks): { error: DialectError | undefined; text: string } {
  const parsed = parseErrorBody(body, openAiErrorBodySchema);
  if (parsed.isStructured) {
    const { message, type, param, code } = parsed.error.error;
    return {
      error: { message, type: type ?? undefined, param: param ?? undefined, code: code ?? undefined },
      text: '',
    };
  }
  return { error: quirks.readErrorBody(body), text: parsed.text };
}

function inferStatus(error: DialectError | undefined): number {
  const words = `${error?.type ?? ''} ${error?.code ?? ''}`.toLowerCase();
  if (/rate_limit|\b(?:requests|tokens)\b|insufficient_quota/.test(words)) return 429;
  if (/overload|unavailable|capacity/.test(words)) return 503;
  if (/authentication|invalid_api_key/.test(words)) return 401;
  if (/permission/.test(words)) return 403;
  if (/invalid_request|context_length|invalid_value|invalid_type/.test(words)) return 400;
  return 500;
}
