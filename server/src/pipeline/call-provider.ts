import type { Dispatcher } from 'undici';
import type { CatalogModel } from '../catalog/price-list.ts';
import type { Route } from '../catalog/route-table.ts';
import type { ChatChunk, ChatCompletion } from '../openai-api/chat-completion.ts';
import type { ChatRequest } from '../openai-api/chat-request.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import {
  UpstreamFailureError,
  type ProviderAdapter,
  type RelayedCompletion,
  type UpstreamFailure,
  type UpstreamHttpRequest,
} from '../providers/provider-adapter.ts';
import { getProviderAdapter } from '../providers/registry.ts';
import { parseSse } from '../providers/shared/parse-sse.ts';
import { readEventStream } from '../providers/shared/read-event-stream.ts';
import {
  postJson,
  postJsonWhole,
  type UpstreamResponse,
  type UpstreamWholeResponse,
} from '../providers/shared/post-json.ts';
import { parseBodyText } from '../providers/shared/parse-error-body.ts';
import { readUpstreamBody, readUpstreamText, type UpstreamBody } from '../providers/shared/read-upstream-body.ts';
import { defaultUpstreamTimeouts, type UpstreamTimeouts } from '../providers/shared/upstream-timeouts.ts';
import type { Routing, TrackedAttempt } from '../routing/create-routing.ts';
import { tryRoutes } from '../routing/try-routes.ts';
import { trackStreamHealth } from './track-stream-health.ts';

export type ProviderCall =
  | { kind: 'completion'; completion: ChatCompletion; route: Route; attemptCount: number }
  | {
      kind: 'stream';
      firstChunk: ChatChunk | undefined;
      chunks: AsyncIterator<ChatChunk>;
      route: Route;
      attemptCount: number;
    };

/** A non-streamed answer forwarded as the vendor sent it (`ProviderAdapter.relayResponse`). */
export type RelayedCall = { kind: 'relayed'; relayed: RelayedCompletion; route: Route; attemptCount: number };

export type CallProviderDeps = {
  dispatcher: Dispatcher;
  /** The dispatcher of a route whose connect timeout differs from the default (undici sets it per pool). */
  dispatcherFor?: (connectTimeoutMs: number) => Dispatcher;
  /** Told about each failed attempt (for logs); never sees request text. */
  onAttemptFailed?: (route: Route, failure: UpstreamFailure) => void;
  /** Route health, the routing policy, the retry budget, the deadline and the metrics (docs/routing.md). */
  routing: Routing;
};

export type CallProviderInput = {
  routes: readonly Route[];
  request: ChatRequest;
  model: CatalogModel;
  isStreaming: boolean;
  signal: AbortSignal;
  requestId: string;
  createdUnixSeconds: number;
  /** The calling account: it may use the routes reserved for it, and scopes conversation affinity. */
  userId: string;
  /**
   * The adapter for a route when the caller speaks another of the vendor's APIs (`/v1/responses` uses OpenAI's own
   * Responses API on OpenAI routes); undefined: the route's chat adapter.
   */
  adapterFor?: (route: Route) => ProviderAdapter | undefined;
  /**
   * The reasoning effort is the client API's setting rather than a choice the caller made in OpenAI's terms
   * (`/v1/messages` maps `output_config.effort` and thinking to it): when a route's model refuses reasoning, the
   * same route is asked again without it instead of failing with an error naming a field the client never sent.
   */
  isReasoningAdvisory?: boolean;
};

const maxErrorBodyBytes = 64 * 1024;

/**
 * Tries the routes in the order of the routing policy (`tryRoutes`, the one failover loop) and returns the first
 * answer. A route that fails before anything was produced (connection error, timeout, 429, 5xx, our credential
 * refused, a malformed answer or an error as the first stream event) is followed by the next one; a failure caused
 * by the request itself is returned at once. A streamed answer counts as produced when its first chunk has arrived:
 * from then on nothing is retried, and the stream's end or break feeds the route's health.
 */
export async function callProvider(deps: CallProviderDeps, input: CallProviderInput): Promise<ProviderCall> {
  return callRoutes(deps, input, parseCompletion);
}

/**
 * `callProvider` for the chat relay: a non-streamed answer that the route's adapter can forward as sent comes back
 * as a RelayedCall, any other as a completion.
 */
export async function callProviderRelaying(
  deps: CallProviderDeps,
  input: CallProviderInput,
): Promise<ProviderCall | RelayedCall> {
  return callRoutes(deps, input, relayOrParseCompletion);
}

async function callRoutes<Completion extends { kind: string }>(
  deps: CallProviderDeps,
  input: CallProviderInput,
  readCompletion: CompletionReader<Completion>,
): Promise<(Completion | StreamAnswer) & { route: Route; attemptCount: number }> {
  const { answer, route, attemptCount } = await tryRoutes(
    deps,
    {
      routes: input.routes,
      userId: input.userId,
      request: input.request,
      modelId: input.model.id,
      signal: input.signal,
      task: 'answer',
    },
    (candidate, { attempt, remainingMs }) =>
      callRouteWithAdvisoryReasoning(deps, { route: candidate, input, attempt, remainingMs, readCompletion }),
  );
  return { ...answer, route, attemptCount };
}

type StreamAnswer = { kind: 'stream'; firstChunk: ChatChunk | undefined; chunks: AsyncIterator<ChatChunk> };

/** Reads a whole (non-streamed) 2xx answer into what the caller of `callRoutes` takes. */
type CompletionReader<Completion> = (input: {
  adapter: ProviderAdapter;
  body: UpstreamBody;
  identity: { requestedModel: string; createdUnixSeconds: number; id: string };
}) => Promise<Completion>;

const parseCompletion: CompletionReader<{ kind: 'completion'; completion: ChatCompletion }> = async (input) => ({
  kind: 'completion',
  completion: input.adapter.parseResponse({ body: await readUpstreamBody(input.body), ...input.identity }),
});

const relayOrParseCompletion: CompletionReader<
  { kind: 'completion'; completion: ChatCompletion } | { kind: 'relayed'; relayed: RelayedCompletion }
> = async (input) => {
  const { adapter } = input;
  if (adapter.relayResponse === undefined) return parseCompletion(input);
  const text = await readUpstreamText(input.body);
  const relayed = adapter.relayResponse({ text, ...input.identity });
  if (relayed !== undefined) return { kind: 'relayed', relayed };
  return { kind: 'completion', completion: adapter.parseResponse({ body: parseBodyText(text), ...input.identity }) };
};

type RouteCall<Completion> = {
  route: Route;
  input: CallProviderInput;
  attempt: TrackedAttempt;
  remainingMs: number;
  readCompletion: CompletionReader<Completion>;
};

async function callRouteWithAdvisoryReasoning<Completion>(
  deps: CallProviderDeps,
  call: RouteCall<Completion>,
): Promise<Completion | StreamAnswer> {
  try {
    return await callRoute(deps, call);
  } catch (error) {
    const { request } = call.input;
    const hasReasoning = request.reasoning_effort !== undefined && request.reasoning_effort !== null;
    if (call.input.isReasoningAdvisory !== true || !hasReasoning || !isReasoningRefusal(error)) throw error;
    const withoutReasoning: ChatRequest = { ...request };
    delete withoutReasoning.reasoning_effort;
    return callRoute(deps, { ...call, input: { ...call.input, request: withoutReasoning } });
  }
}

/** The adapter (before the call) or the vendor (after it) refused the reasoning setting for this model. */
function isReasoningRefusal(error: unknown): boolean {
  if (error instanceof InvalidRequestError) return error.param === 'reasoning_effort';
  return (
    error instanceof UpstreamFailureError &&
    error.failure.kind === 'request' &&
    error.failure.param === 'reasoning_effort'
  );
}

async function callRoute<Completion>(
  deps: CallProviderDeps,
  call: RouteCall<Completion>,
): Promise<Completion | StreamAnswer> {
  const { route, input } = call;
  const httpRequest = (input.adapterFor?.(route) ?? getProviderAdapter(route.provider)).buildRequest({
    request: input.request,
    target: {
      baseUrl: route.baseUrl,
      credential: route.credential,
      upstreamModel: route.upstreamModel,
      defaultMaxOutputTokens: input.model.maxOutputTokens,
      ...(route.vendorOptions === undefined ? {} : { options: route.vendorOptions }),
    },
    isStreaming: input.isStreaming,
  });
  const timeouts = routeTimeouts(route, { isStreaming: input.isStreaming, remainingMs: call.remainingMs });
  if (!input.isStreaming) return requestRoute(deps, { ...call, httpRequest, timeouts, signal: input.signal });
  // The first-byte timeout (already cut to the deadline) runs until a stream's first chunk, not just its headers: a
  // vendor that answers 200 and then stays silent is failed over like one that never answers. A whole answer has
  // only the HTTP timeouts, so it needs neither the controller nor the combined signal (both cost per call).
  const attemptController = new AbortController();
  const firstByteTimer = setTimeout(
    () => attemptController.abort(createFirstByteTimeoutError()),
    timeouts.firstByteTimeoutMs,
  );
  try {
    return await requestRoute(deps, {
      ...call,
      httpRequest,
      timeouts,
      signal: AbortSignal.any([input.signal, attemptController.signal]),
    });
  } finally {
    clearTimeout(firstByteTimer);
  }
}

/** One attempt over HTTP: the completion, or a stream whose first chunk has arrived. */
async function requestRoute<Completion>(
  deps: CallProviderDeps,
  call: {
    route: Route;
    input: CallProviderInput;
    attempt: TrackedAttempt;
    httpRequest: UpstreamHttpRequest;
    timeouts: UpstreamTimeouts;
    signal: AbortSignal;
    readCompletion: CompletionReader<Completion>;
  },
): Promise<Completion | StreamAnswer> {
  const { route, input, attempt, timeouts } = call;
  const adapter = input.adapterFor?.(route) ?? getProviderAdapter(route.provider);
  const send = {
    request: call.httpRequest,
    dispatcher: route.timeouts?.connectTimeoutMs
      ? (deps.dispatcherFor?.(timeouts.connectTimeoutMs) ?? deps.dispatcher)
      : deps.dispatcher,
    signal: call.signal,
    timeouts,
  };
  const identity = { requestedModel: input.request.model, createdUnixSeconds: input.createdUnixSeconds };
  if (!input.isStreaming) {
    // A whole answer goes through undici's dispatch with our own handler (no Readable): see request-whole.ts.
    const response = await postJsonWhole(send);
    if (response.status < 200 || response.status > 299) throw await readFailure(adapter, response);
    const id = `chatcmpl-${input.requestId}`;
    const completion = await call.readCompletion({ adapter, body: response.body, identity: { ...identity, id } });
    attempt.finish({ kind: 'success' });
    return completion;
  }
  const response = await postJson(send);
  if (response.status < 200 || response.status > 299) throw await readFailure(adapter, response);
  const streamIdentity = { ...identity, id: `chatcmpl-${input.requestId}` };
  const chunks = adapter.createStreamConverter
    ? readEventStream(response.body, adapter.createStreamConverter(streamIdentity))
    : adapter.parseStream({ events: parseSse(response.body), ...streamIdentity })[Symbol.asyncIterator]();
  let first: IteratorResult<ChatChunk>;
  try {
    first = await chunks.next();
  } catch (error) {
    await chunks.return?.();
    throw error;
  }
  attempt.recordFirstByte();
  if (first.done) attempt.finish({ kind: 'success' });
  const tracked = trackStreamHealth({ chunks, attempt, signal: input.signal });
  return { kind: 'stream', firstChunk: first.done ? undefined : first.value, chunks: tracked };
}

/** A non-2xx answer: its (capped) body and headers become the adapter's classified failure. */
async function readFailure(
  adapter: ProviderAdapter,
  response: UpstreamResponse | UpstreamWholeResponse,
): Promise<UpstreamFailureError> {
  const body = await readUpstreamBody(response.body, { maxBytes: maxErrorBodyBytes });
  return new UpstreamFailureError(adapter.parseError({ status: response.status, body, headers: response.headers }));
}

function createFirstByteTimeoutError(): UpstreamFailureError {
  return new UpstreamFailureError({
    kind: 'retryable',
    status: 504,
    message: 'The upstream provider did not start its answer in time.',
    vendorCode: 'first_byte_timeout',
  });
}

/** The route's own timeouts over the defaults; the wait for the first byte never outlasts the request's deadline. */
function routeTimeouts(route: Route, input: { isStreaming: boolean; remainingMs: number }): UpstreamTimeouts {
  const timeouts = { ...defaultUpstreamTimeouts({ isStreaming: input.isStreaming }), ...route.timeouts };
  return { ...timeouts, firstByteTimeoutMs: Math.max(1, Math.min(timeouts.firstByteTimeoutMs, input.remainingMs)) };
}
