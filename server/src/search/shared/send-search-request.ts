import type { Dispatcher } from 'undici';
import { parseBodyText } from '../../providers/shared/parse-error-body.ts';
import { requestBuffered } from '../../upstream/request-buffered.ts';
import { UpstreamTransportError } from '../../upstream/upstream-transport-error.ts';
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
  try {
    const reply = await requestBuffered(
      {
        ...input.request,
        signal: input.signal,
        timeoutMs: input.timeoutMs,
        maxBodyBytes: input.maxBodyBytes,
      },
      input.dispatcher,
    );
    return { status: reply.status, headers: reply.headers, body: parseBodyText(reply.bodyText) };
  } catch (error) {
    throw convertTransportError(error, input);
  }
}

function convertTransportError(
  error: unknown,
  input: { engine: SearchEngineId; timeoutMs: number; maxBodyBytes: number },
): unknown {
  if (!(error instanceof UpstreamTransportError)) return error;
  const name = searchEngineNames[input.engine];
  const engine = input.engine;
  switch (error.kind) {
    case 'aborted':
      return new SearchEngineError({
        kind: 'timeout',
        engine,
        message: `The search was cancelled before ${name} answered.`,
        engineCode: 'cancelled',
        cause: error.cause,
      });
    case 'timeout':
      return new SearchEngineError({
        kind: 'timeout',
        engine,
        message: `${name} did not answer within ${input.timeoutMs} ms.`,
        engineCode: error.code,
      });
    case 'body_too_large':
      return new SearchEngineError({
        kind: 'unavailable',
        engine,
        message: `${name} sent a response larger than ${input.maxBodyBytes} bytes.`,
        engineCode: 'response_too_large',
      });
    case 'connection':
      return new SearchEngineError({
        kind: 'unavailable',
        engine,
        message: `${name} could not be reached.`,
        engineCode: error.code,
        cause: error.cause,
      });
  }
}
