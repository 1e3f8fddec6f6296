import type { GatewayError } from '../errors/gateway-error.ts';
import { InvalidRequestError, toInvalidRequestCode } from '../errors/invalid-request-error.ts';
import { UpstreamError } from '../errors/upstream-error.ts';
import { UpstreamTimeoutError } from '../errors/upstream-timeout-error.ts';
import type { ChatRequest } from '../openai-api/chat-request.ts';
import { describeAttemptOutcome } from './describe-attempt-outcome.ts';
import { UpstreamFailureError, type UpstreamFailure } from '../providers/provider-adapter.ts';
import type { RoutingCandidate } from './choose-route-order.ts';
import type { Routing, TrackedAttempt } from './create-routing.ts';
import type { RouteHealthView } from './route-health.ts';

/** What the failover loop needs of a route. */
export type TriedRoute = RoutingCandidate & { provider: string };

/** One attempt on a route: its health tracker, and how long it may still take to produce its answer. */
export type RouteAttempt = { attempt: TrackedAttempt; remainingMs: number };

/**
 * Tries a request's routes in the order of the routing policy (docs/routing.md) and returns the first answer. A route
 * failure (an UpstreamFailureError that is not the request's fault) moves on to the next route while the request's
 * deadline and the node's retry budget allow; a failure caused by the request is returned at once as a 400. Every
 * attempt feeds its route's health: `attemptRoute` reports success itself (a stream succeeds only when it ends),
 * failures are reported here. `task` completes the client's error message: "The upstream provider failed to <task>."
 */
export async function tryRoutes<Route extends TriedRoute, Answer>(
  deps: { routing: Routing; onAttemptFailed?: ((route: Route, failure: UpstreamFailure) => void) | undefined },
  input: {
    routes: readonly Route[];
    userId: string;
    /** A chat request keeps its conversation on one route (affinity); without one, equals are ordered at random. */
    request?: ChatRequest;
    modelId: string;
    signal: AbortSignal;
    task: string;
  },
  attemptRoute: (route: Route, attempt: RouteAttempt) => Promise<Answer>,
): Promise<{ answer: Answer; route: Route; attemptCount: number }> {
  const { routing } = deps;
  const order = routing.order({
    routes: input.routes,
    userId: input.userId,
    ...(input.request === undefined ? {} : { request: input.request }),
  });
  const nowMs = () => routing.clock.nowMs();
  const deadlineAtMs = nowMs() + routing.settings.deadlineMs;
  routing.budget.recordRequest(nowMs());
  let lastFailure: UpstreamFailure | undefined;
  let attemptCount = 0;
  for (const route of order.ordered) {
    if (attemptCount > 0 && !routing.budget.tryRetry(nowMs())) {
      routing.metrics?.countRetryRefused();
      break;
    }
    const attempt = routing.tryStart(route);
    // Another request took the last slot (concurrency cap) or the breaker's single probe since the order was made.
    if (!attempt) continue;
    const remainingMs = deadlineAtMs - nowMs();
    if (remainingMs <= 0) {
      attempt.finish({ kind: 'abandoned' });
      break;
    }
    attemptCount += 1;
    try {
      return { answer: await attemptRoute(route, { attempt, remainingMs }), route, attemptCount };
    } catch (error) {
      attempt.finish(describeAttemptOutcome(error, input.signal));
      if (input.signal.aborted) throw input.signal.reason ?? error;
      if (!(error instanceof UpstreamFailureError)) throw error;
      if (error.failure.kind === 'request') throw toRequestError(error.failure);
      lastFailure = error.failure;
      deps.onAttemptFailed?.(route, error.failure);
    }
  }
  if (attemptCount === 0) throw createNoRouteError(input.modelId, order, nowMs());
  throw createExhaustedError(lastFailure, input.task);
}

function toRequestError(failure: UpstreamFailure): GatewayError {
  return new InvalidRequestError(failure.message, {
    param: failure.param ?? null,
    code: toInvalidRequestCode(failure.vendorCode),
  });
}

/**
 * Every attempt failed. The message is the same however many routes were tried: the client learns nothing of the
 * routes behind the model.
 */
function createExhaustedError(failure: UpstreamFailure | undefined, task: string): GatewayError {
  if (failure?.status === 504)
    return new UpstreamTimeoutError('The upstream provider did not answer in time. Please retry.');
  const detail = failure ? ` Last error: ${failure.message}` : '';
  return new UpstreamError(`The upstream provider failed to ${task}.${detail}`, {
    code: failure?.status === 429 ? 'upstream_rate_limited' : 'upstream_error',
  });
}

/**
 * No route could be tried. Every route is reserved for other accounts (a 404 earlier, `chooseRoutes`, unless the
 * routes changed since): none will come back for this one, so no `Retry-After`. Every route is resting (open
 * breaker, Retry-After) or full: fail fast, saying when one is expected back.
 */
function createNoRouteError(
  modelId: string,
  order: { ordered: readonly unknown[]; unavailable: readonly { view: RouteHealthView }[] },
  nowMs: number,
): GatewayError {
  const { unavailable } = order;
  if (order.ordered.length === 0 && unavailable.length === 0) {
    return new UpstreamError(`No upstream is available for the model \`${modelId}\` right now.`, {
      code: 'no_route_available',
    });
  }
  const backAtMs = unavailable
    .map(({ view }) => view.coolingUntilMs ?? view.probeAtMs)
    .filter((at): at is number => at !== undefined && at > nowMs);
  const retryAfterSeconds = backAtMs.length === 0 ? 1 : Math.ceil((Math.min(...backAtMs) - nowMs) / 1000);
  return new UpstreamError(
    `No upstream route for the model \`${modelId}\` is available right now. Please retry in ${retryAfterSeconds} s.`,
    { code: 'no_route_available', headers: { 'retry-after': String(retryAfterSeconds) } },
  );
}
