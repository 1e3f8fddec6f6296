import type { Dispatcher } from 'undici';
import type { Route } from '../catalog/route-table.ts';
import type { GatewayError } from '../errors/gateway-error.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { UpstreamError } from '../errors/upstream-error.ts';
import { UpstreamTimeoutError } from '../errors/upstream-timeout-error.ts';
import { describeAttemptOutcome } from '../pipeline/describe-attempt-outcome.ts';
import { UpstreamFailureError, type UpstreamFailure } from '../providers/provider-adapter.ts';
import type { Routing } from '../routing/create-routing.ts';
import { findImageClient } from './find-image-client.ts';
import type { GeneratedImages } from './image-client.ts';
import type { ImageJob } from './image-job.ts';

export type ImageProviderCall = { generated: GeneratedImages; route: Route; attemptCount: number };

export type CallImageProviderDeps = {
  dispatcher: Dispatcher;
  /** Told about each failed attempt (for logs); never sees the prompt. */
  onAttemptFailed?: (route: Route, failure: UpstreamFailure) => void;
  /** Route health: a route that is cooling down, at its concurrency cap or behind an open breaker is skipped. */
  routing?: Pick<Routing, 'tryStart'>;
};

const connectTimeoutMs = 10_000;

/**
 * Tries the routes in order; nothing reaches the client before a route has answered with every image, so any route
 * failure (connection, timeout, 429, 5xx, our credential refused, a malformed answer, a route that cannot serve the
 * model) moves on to the next route. A failure caused by the request (a bad parameter, a content-policy refusal) is
 * returned at once as a 400. Each attempt must finish within `timeoutMs`, polls and downloads included, and its
 * outcome feeds the route's health, as chat attempts do.
 */
export async function callImageProvider(
  deps: CallImageProviderDeps,
  input: { routes: readonly Route[]; job: ImageJob; signal: AbortSignal; timeoutMs: number },
): Promise<ImageProviderCall> {
  let lastFailure: UpstreamFailure | undefined;
  let attemptCount = 0;
  for (const route of input.routes) {
    const attempt = deps.routing?.tryStart(route);
    if (deps.routing && !attempt) continue;
    attemptCount += 1;
    try {
      const generated = await callRoute(deps, route, input);
      attempt?.finish({ kind: 'success' });
      return { generated, route, attemptCount };
    } catch (error) {
      attempt?.finish(describeAttemptOutcome(error, input.signal));
      if (input.signal.aborted) throw input.signal.reason ?? error;
      if (!(error instanceof UpstreamFailureError)) throw error;
      if (error.failure.kind === 'request') throw toRequestError(error.failure);
      lastFailure = error.failure;
      deps.onAttemptFailed?.(route, error.failure);
    }
  }
  if (attemptCount === 0) {
    throw new UpstreamError('Every upstream route of this model is resting after failures. Please retry shortly.', {
      code: 'no_route_available',
    });
  }
  throw toExhaustedError(lastFailure, attemptCount);
}

async function callRoute(
  deps: CallImageProviderDeps,
  route: Route,
  input: { job: ImageJob; signal: AbortSignal; timeoutMs: number },
): Promise<GeneratedImages> {
  const client = findImageClient(input.job.profile.api, route.provider);
  if (!client) {
    throw new UpstreamFailureError({
      kind: 'credential',
      status: 404,
      message: `The route's provider type \`${route.provider}\` cannot serve this image model.`,
      vendorCode: 'no_image_client',
    });
  }
  const deadline = AbortSignal.timeout(input.timeoutMs);
  try {
    const generated = await client({
      provider: route.provider,
      target: { baseUrl: route.baseUrl, credential: route.credential, upstreamModel: route.upstreamModel },
      job: input.job,
      dispatcher: deps.dispatcher,
      signal: AbortSignal.any([input.signal, deadline]),
      timeouts: { connectTimeoutMs, firstByteTimeoutMs: input.timeoutMs, idleTimeoutMs: input.timeoutMs },
    });
    if (generated.images.length === 0) {
      throw new UpstreamFailureError({
        kind: 'retryable',
        status: 502,
        message: 'The upstream provider answered without any image.',
        vendorCode: 'no_images',
      });
    }
    return generated;
  } catch (error) {
    if (deadline.aborted && !input.signal.aborted) {
      throw new UpstreamFailureError({
        kind: 'retryable',
        status: 504,
        message: 'The upstream provider did not answer in time.',
        vendorCode: 'deadline_exceeded',
      });
    }
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
  if (failure?.status === 504) return new UpstreamTimeoutError(`${tried} did not answer in time. Please retry.`);
  const detail = failure ? ` Last error: ${failure.message}` : '';
  return new UpstreamError(`${tried} failed to draw the image.${detail}`, {
    code: failure?.status === 429 ? 'upstream_rate_limited' : 'upstream_error',
  });
}
