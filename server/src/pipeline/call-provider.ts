import type { Dispatcher } from 'undici';
import type { CatalogModel } from '../catalog/price-list.ts';
import type { Route } from '../catalog/route-table.ts';
import type { GatewayError } from '../errors/gateway-error.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { UpstreamError } from '../errors/upstream-error.ts';
import { UpstreamTimeoutError } from '../errors/upstream-timeout-error.ts';
import type { ChatChunk, ChatCompletion } from '../openai-api/chat-completion.ts';
import type { ChatRequest } from '../openai-api/chat-request.ts';
import { UpstreamFailureError, type UpstreamFailure } from '../providers/provider-adapter.ts';
import { getProviderAdapter } from '../providers/registry.ts';
import { parseSse } from '../providers/shared/parse-sse.ts';
import { postJson } from '../providers/shared/post-json.ts';
import { readUpstreamBody } from '../providers/shared/read-upstream-body.ts';
import { defaultUpstreamTimeouts } from '../providers/shared/upstream-timeouts.ts';

export type ProviderCall =
  | { kind: 'completion'; completion: ChatCompletion; route: Route; attemptCount: number }
  | {
      kind: 'stream';
      firstChunk: ChatChunk | undefined;
      chunks: AsyncIterator<ChatChunk>;
      route: Route;
      attemptCount: number;
    };

export type CallProviderDeps = {
  dispatcher: Dispatcher;
  /** Told about each failed attempt (for logs and route health); never sees request text. */
  onAttemptFailed?: (route: Route, failure: UpstreamFailure) => void;
};

const maxErrorBodyBytes = 64 * 1024;

/**
 * Tries the routes in order and returns the first answer. A route that fails before anything was produced
 * (connection error, timeout, 429, 5xx, our credential refused, a malformed answer or an error as the first stream
 * event) is followed by the next one; a failure caused by the request itself is returned at once. A streamed answer
 * counts as produced when its first chunk has arrived: from then on nothing is retried.
 */
export async function callProvider(
  deps: CallProviderDeps,
  input: {
    routes: readonly Route[];
    request: ChatRequest;
    model: CatalogModel;
    isStreaming: boolean;
    signal: AbortSignal;
    requestId: string;
    createdUnixSeconds: number;
  },
): Promise<ProviderCall> {
  let lastFailure: UpstreamFailure | undefined;
  let attemptCount = 0;
  for (const route of input.routes) {
    attemptCount += 1;
    try {
      const answer = await callRoute(deps, route, input);
      return { ...answer, route, attemptCount } as ProviderCall;
    } catch (error) {
      if (input.signal.aborted) throw input.signal.reason ?? error;
      if (!(error instanceof UpstreamFailureError)) throw error;
      if (error.failure.kind === 'request') throw toRequestError(error.failure);
      lastFailure = error.failure;
      deps.onAttemptFailed?.(route, error.failure);
    }
  }
  throw toExhaustedError(lastFailure, attemptCount);
}

type RouteAnswer =
  | { kind: 'completion'; completion: ChatCompletion }
  | { kind: 'stream'; firstChunk: ChatChunk | undefined; chunks: AsyncIterator<ChatChunk> };

async function callRoute(
  deps: CallProviderDeps,
  route: Route,
  input: Parameters<typeof callProvider>[1],
): Promise<RouteAnswer> {
  const adapter = getProviderAdapter(route.provider);
  const httpRequest = adapter.buildRequest({
    request: input.request,
    target: {
      baseUrl: route.baseUrl,
      credential: route.credential,
      upstreamModel: route.upstreamModel,
      defaultMaxOutputTokens: input.model.maxOutputTokens,
    },
    isStreaming: input.isStreaming,
  });
  const response = await postJson({
    request: httpRequest,
    dispatcher: deps.dispatcher,
    signal: input.signal,
    timeouts: defaultUpstreamTimeouts({ isStreaming: input.isStreaming }),
  });
  if (response.status < 200 || response.status > 299) {
    const body = await readUpstreamBody(response.body, { maxBytes: maxErrorBodyBytes });
    throw new UpstreamFailureError(adapter.parseError({ status: response.status, body, headers: response.headers }));
  }
  const identity = { requestedModel: input.request.model, createdUnixSeconds: input.createdUnixSeconds };
  if (!input.isStreaming) {
    const body = await readUpstreamBody(response.body);
    return {
      kind: 'completion',
      completion: adapter.parseResponse({ body, ...identity, id: `chatcmpl-${input.requestId}` }),
    };
  }
  const chunks = adapter
    .parseStream({ events: parseSse(response.body), ...identity, id: `chatcmpl-${input.requestId}` })
    [Symbol.asyncIterator]();
  try {
    const first = await chunks.next();
    return { kind: 'stream', firstChunk: first.done ? undefined : first.value, chunks };
  } catch (error) {
    await chunks.return?.();
    throw error;
  }
}

function toRequestError(failure: UpstreamFailure): GatewayError {
  return new InvalidRequestError(failure.message, {
    param: failure.param ?? null,
    code: failure.vendorCode ?? 'invalid_value',
  });
}

function toExhaustedError(failure: UpstreamFailure | undefined, attemptCount: number): GatewayError {
  const tried = attemptCount === 1 ? 'The upstream provider' : `All ${attemptCount} upstream routes`;
  if (failure?.status === 504) {
    return new UpstreamTimeoutError(`${tried} did not answer in time. Please retry.`);
  }
  const detail = failure ? ` Last error: ${failure.message}` : '';
  return new UpstreamError(`${tried} failed to answer.${detail}`, {
    code: failure?.status === 429 ? 'upstream_rate_limited' : 'upstream_error',
  });
}
