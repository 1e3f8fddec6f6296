import { request, type Dispatcher } from 'undici';
import { parseBodyText } from '../../providers/shared/parse-error-body.ts';
import type { SearchHttpRequest } from '../search-engine-adapter.ts';
import { SearchEngineError } from '../search-engine-error.ts';
import { searchEngineNames, type SearchEngineId } from '../search-engine.ts';

/** An engine's answer, read whole: `body` is parsed JSON, or the raw text when it was not JSON. */
export type SearchHttpResponse = {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Readonly<Record<string, string>>;
  body: unknown;
};

const timeoutErrorCodes = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * Sends one engine call through the given dispatcher. The whole call, body included, must finish within
 * `timeoutMs`; the body may not exceed `maxBodyBytes`. Every failure becomes a SearchEngineError: the deadline or the
 * caller's signal → `timeout`, anything else on the way (refused connection, reset, oversized body) → `unavailable`.
 */
export async function sendSearchRequest(input: {
  engine: SearchEngineId;
  request: SearchHttpRequest;
  dispatcher: Dispatcher;
  signal: AbortSignal;
  timeoutMs: number;
  maxBodyBytes: number;
}): Promise<SearchHttpResponse> {
  const deadline = AbortSignal.timeout(input.timeoutMs);
  const signal = AbortSignal.any([input.signal, deadline]);
  try {
    const response = await request(input.request.url, {
      method: input.request.method,
      headers: input.request.headers,
      body: input.request.body ?? null,
      dispatcher: input.dispatcher,
      signal,
      headersTimeout: input.timeoutMs,
      bodyTimeout: input.timeoutMs,
    });
    const text = await readCappedText(response.body, { engine: input.engine, maxBodyBytes: input.maxBodyBytes });
    return { status: response.statusCode, headers: flattenHeaders(response.headers), body: parseBodyText(text) };
  } catch (error) {
    throw convertTransportError(error, {
      engine: input.engine,
      callerSignal: input.signal,
      deadline,
      timeoutMs: input.timeoutMs,
    });
  }
}

async function readCappedText(
  body: Dispatcher.ResponseData['body'],
  input: { engine: SearchEngineId; maxBodyBytes: number },
): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  let byteCount = 0;
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    byteCount += chunk.byteLength;
    if (byteCount > input.maxBodyBytes) {
      body.destroy();
      throw new SearchEngineError({
        kind: 'unavailable',
        engine: input.engine,
        message: `${searchEngineNames[input.engine]} sent a response larger than ${input.maxBodyBytes} bytes.`,
        engineCode: 'response_too_large',
      });
    }
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function convertTransportError(
  error: unknown,
  input: { engine: SearchEngineId; callerSignal: AbortSignal; deadline: AbortSignal; timeoutMs: number },
): SearchEngineError {
  if (error instanceof SearchEngineError) return error;
  const name = searchEngineNames[input.engine];
  if (input.callerSignal.aborted) {
    return new SearchEngineError({
      kind: 'timeout',
      engine: input.engine,
      message: `The search was cancelled before ${name} answered.`,
      engineCode: 'cancelled',
      cause: input.callerSignal.reason,
    });
  }
  const code = readErrorCode(error);
  if (input.deadline.aborted || (code !== undefined && timeoutErrorCodes.has(code))) {
    return new SearchEngineError({
      kind: 'timeout',
      engine: input.engine,
      message: `${name} did not answer within ${input.timeoutMs} ms.`,
      engineCode: code ?? 'deadline_exceeded',
    });
  }
  return new SearchEngineError({
    kind: 'unavailable',
    engine: input.engine,
    message: `${name} could not be reached.`,
    engineCode: code ?? 'connection_error',
    cause: error,
  });
}

function readErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
