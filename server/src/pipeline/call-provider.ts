import type { Dispatcher } from 'undici';
import type { CatalogModel } from '../catalog/price-list.ts';
import type { Route } from '../catalog/route-table.ts';
import type { GatewayError } from '../errors/gateway-error.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { UpstreamError } from '../errors/upstream-error.ts';
import { UpstreamTimeoutError } from '../errors/upstream-timeout-error.ts';
import type { ChatChunk, ChatCompletion } from '../openai-api/chat-completion.ts';
import type { ChatRequest } from '../openai-api/chat-request.ts';
import {
  UpstreamFailureError,
  type ProviderAdapter,
  type UpstreamFailure,
  type UpstreamHttpRequest,
} from '../providers/provider-adapter.ts';
import { getProviderAdapter } from '../providers/registry.ts';
import { parseSse } from '../providers/shared/parse-sse.ts';
import { postJson } from '../providers/shared/post-json.ts';
import { readUpstreamBody } from '../providers/shared/read-upstream-body.ts';
import { defaultUpstreamTimeouts, type UpstreamTimeouts } from '../providers/shared/upstream-timeouts.ts';
import type { Routing, TrackedAttempt } from '../routing/create-routing.ts';
import type { RouteHealthView } from '../routing/route-health.ts';
import { describeAttemptOutcome } from '../routing/describe-attempt-outcome.ts';
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

export type CallProviderDeps = {
  dispatcher: Dispatcher;
  /** The dispatcher of a route whose connect timeout differs from the default (undici sets it per pool). */
  dispatcherFor?: (connectTimeoutMs: number) => Dispatcher;
  /** Told about each failed attempt (for logs); never sees request text. */
  onAttemptFailed?: (route: Route, failure: UpstreamFailure) => void;
  /** Route health, the routing policy, the retry budget and the metrics (docs/routing.md). */
  routing?: Routing;
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
};

const maxErrorBodyBytes = 64 * 1024;

/**
 * Tries the routes in the order of the routing policy and returns the first answer. A route that fails before
 * anything was produced (connection error, timeout, 429, 5xx, our credential refused, a malformed answer or an error
 * as the first stream event) is followed by the next one, while the request's deadline and the node's retry budget
 * allow; a failure caused by the request itself is returned at once. A streamed answer counts as produced when its
 * first chunk has arrived: from then on nothing is retried. Every attempt feeds the route's health.
 */
export async function callProvider(deps: CallProviderDeps, input: CallProviderInput): Promise<ProviderCall> {
  const routing = deps.routing;
  const order = routing
    ? routing.order({ routes: input.routes, userId: input.userId, request: input.request })
    : { ordered: [...input.routes], unavailable: [] };
  // Without routing (unit tests of other stages) there is no clock, no deadline and no budget.
  const nowMs = () => routing?.clock.nowMs() ?? 0;
  const deadlineAtMs = nowMs() + (routing?.settings.deadlineMs ?? Infinity);
  routing?.budget.recordRequest(nowMs());
  let lastFailure: UpstreamFailure | undefined;
  let attemptCount = 0;
  for (const route of order.ordered) {
    if (attemptCount > 0 && routing && !routing.budget.tryRetry(nowMs())) {
      routing.metrics?.countRetryRefused();
      break;
    }
    const attempt = routing?.tryStart(route);
    // Another request took the last slot (concurrency cap) or the breaker's single probe since the order was made.
    if (routing && !attempt) continue;
    const remainingMs = deadlineAtMs - nowMs();
    if (remainingMs <= 0) {
      attempt?.finish({ kind: 'abandoned' });
      break;
    }
    attemptCount += 1;
    try {
      const answer = await callRoute(deps, { route, input, attempt, remainingMs });
      return { ...answer, route, attemptCount } as ProviderCall;
    } catch (error) {
      attempt?.finish(describeAttemptOutcome(error, input.signal));
      if (input.signal.aborted) throw input.signal.reason ?? error;
      if (!(error instanceof UpstreamFailureError)) throw error;
      if (error.failure.kind === 'request') throw toRequestError(error.failure);
      lastFailure = error.failure;
      deps.onAttemptFailed?.(route, error.failure);
    }
  }
  if (attemptCount === 0) throw toNoRouteError(input.model, order, nowMs());
  throw toExhaustedError(lastFailure);
}

type RouteAnswer =
  | { kind: 'completion'; completion: ChatCompletion }
  | { kind: 'stream'; firstChunk: ChatChunk | undefined; chunks: AsyncIterator<ChatChunk> };

async function callRoute(
  deps: CallProviderDeps,
  call: { route: Route; input: CallProviderInput; attempt: TrackedAttempt | undefined; remainingMs: number },
): Promise<RouteAnswer> {
  const { route, input } = call;
  const httpRequest = (input.adapterFor?.(route) ?? getProviderAdapter(route.provider)).buildRequest({
    request: input.request,
    target: {
      baseUrl: route.baseUrl,
      credential: route.credential,
      upstreamModel: route.upstreamModel,
      defaultMaxOutputTokens: input.model.maxOutputTokens,
      ...(route.apiVersion === undefined ? {} : { apiVersion: route.apiVersion }),
    },
    isStreaming: input.isStreaming,
  });
  const timeouts = routeTimeouts(route, { isStreaming: input.isStreaming, remainingMs: call.remainingMs });
  // The first-byte timeout (already cut to the deadline) runs until a stream's first chunk, not just its headers: a
  // vendor that answers 200 and then stays silent is failed over like one that never answers.
  const attemptController = new AbortController();
  const firstByteTimer = input.isStreaming
    ? setTimeout(() => attemptController.abort(createFirstByteTimeoutError()), timeouts.firstByteTimeoutMs)
    : undefined;
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
async function requestRoute(
  deps: CallProviderDeps,
  call: {
    route: Route;
    input: CallProviderInput;
    attempt: TrackedAttempt | undefined;
    httpRequest: UpstreamHttpRequest;
    timeouts: UpstreamTimeouts;
    signal: AbortSignal;
  },
): Promise<RouteAnswer> {
  const { route, input, attempt, timeouts } = call;
  const adapter = input.adapterFor?.(route) ?? getProviderAdapter(route.provider);
  const response = await postJson({
    request: call.httpRequest,
    dispatcher: route.timeouts?.connectTimeoutMs
      ? (deps.dispatcherFor?.(timeouts.connectTimeoutMs) ?? deps.dispatcher)
      : deps.dispatcher,
    signal: call.signal,
    timeouts,
  });
  if (response.status < 200 || response.status > 299) {
    const body = await readUpstreamBody(response.body, { maxBytes: maxErrorBodyBytes });
    throw new UpstreamFailureError(adapter.parseError({ status: response.status, body, headers: response.headers }));
  }
  const identity = { requestedModel: input.request.model, createdUnixSeconds: input.createdUnixSeconds };
  if (!input.isStreaming) {
    const body = await readUpstreamBody(response.body);
    const completion = adapter.parseResponse({ body, ...identity, id: `chatcmpl-${input.requestId}` });
    attempt?.finish({ kind: 'success' });
    return { kind: 'completion', completion };
  }
  const chunks = adapter
    .parseStream({ events: parseSse(response.body), ...identity, id: `chatcmpl-${input.requestId}` })
    [Symbol.asyncIterator]();
  let first: IteratorResult<ChatChunk>;
  try {
    first = await chunks.next();
  } catch (error) {
    await chunks.return?.();
    throw error;
  }
  attempt?.recordFirstByte();
  if (first.done) attempt?.finish({ kind: 'success' });
  const tracked = attempt ? trackStreamHealth({ chunks, attempt, signal: input.signal }) : chunks;
  return { kind: 'stream', firstChunk: first.done ? undefined : first.value, chunks: tracked };
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

function toRequestError(failure: UpstreamFailure): GatewayError {
  return new InvalidRequestError(failure.message, {
    param: failure.param ?? null,
    code: failure.vendorCode ?? 'invalid_value',
  });
}

function toExhaustedError(failure: UpstreamFailure | undefined): GatewayError {
  // Never the number of routes tried: the client learns nothing of the routes behind a model.
  const tried = 'The upstream provider';
  if (failure?.status === 504) {
    return new UpstreamTimeoutError(`${tried} did not answer in time. Please retry.`);
  }
  const detail = failure ? ` Last error: ${failure.message}` : '';
  return new UpstreamError(`${tried} failed to answer.${detail}`, {
    code: failure?.status === 429 ? 'upstream_rate_limited' : 'upstream_error',
  });
}

/**
 * No route could be tried. When every route is resting (open breaker, Retry-After) or full: fail fast, saying when one
 * is expected back.
 */
function toNoRouteError(
  model: CatalogModel,
  order: { ordered: readonly unknown[]; unavailable: readonly { view: RouteHealthView }[] },
  nowMs: number,
): GatewayError {
  const { unavailable } = order;
  // Every route is reserved for other accounts: none will come back for this one.
  if (order.ordered.length === 0 && unavailable.length === 0) {
    return new UpstreamError(`No upstream is available for the model \`${model.id}\` right now.`, {
      code: 'no_route_available',
    });
  }
  const backAtMs = unavailable
    .map(({ view }) => view.coolingUntilMs ?? view.probeAtMs)
    .filter((at): at is number => at !== undefined && at > nowMs);
  const retryAfterSeconds = backAtMs.length === 0 ? 1 : Math.ceil((Math.min(...backAtMs) - nowMs) / 1000);
  return new UpstreamError(
    `No upstream route for the model \`${model.id}\` is available right now. Please retry in ${retryAfterSeconds} s.`,
    { code: 'no_route_available', headers: { 'retry-after': String(retryAfterSeconds) } },
  );
}
