import type { Dispatcher } from 'undici';
import type { Route } from '../catalog/route-table.ts';
import { UpstreamFailureError, type UpstreamFailure } from '../providers/provider-adapter.ts';
import { defaultUpstreamTimeouts } from '../providers/shared/upstream-timeouts.ts';
import type { Routing } from '../routing/create-routing.ts';
import { tryRoutes } from '../routing/try-routes.ts';
import { findImageClient } from './find-image-client.ts';
import type { GeneratedImages } from './image-client.ts';
import type { ImageJob } from './image-job.ts';

export type ImageProviderCall = { generated: GeneratedImages; route: Route; attemptCount: number };

export type CallImageProviderDeps = {
  dispatcher: Dispatcher;
  /** The dispatcher of a route whose connect timeout differs from the default (undici sets it per pool). */
  dispatcherFor?: (connectTimeoutMs: number) => Dispatcher;
  /** Told about each failed attempt (for logs); never sees the prompt. */
  onAttemptFailed?: (route: Route, failure: UpstreamFailure) => void;
  /** The routing policy, route health, the retry budget and the deadline: the same as chat's (docs/routing.md). */
  routing: Routing;
};

/**
 * Tries the routes in the order of the routing policy, as chat does: routes reserved for other accounts are left
 * out, resting or full routes skipped, equals weighted by weight and health, failover bounded by the request's
 * deadline and the node's retry budget. Nothing reaches the client before a route has answered with every image, so
 * any route failure (connection, timeout, 429, 5xx, our credential refused, a malformed answer, a route that cannot
 * serve the model) moves on to the next route. A failure caused by the request (a bad parameter, a content-policy
 * refusal) is returned at once as a 400. Each attempt must finish within `timeoutMs` (polls and downloads included)
 * and within what is left of the deadline.
 */
export async function callImageProvider(
  deps: CallImageProviderDeps,
  input: {
    routes: readonly Route[];
    job: ImageJob;
    signal: AbortSignal;
    timeoutMs: number;
    /** The catalogue model asked for (what clients call it). */
    modelId: string;
    /** The calling account: routes reserved for other accounts are left out, its own come first. */
    userId: string;
    /** Told about each route as it is tried, so a failed call can name the last one. */
    onRouteTried?: (route: Route) => void;
  },
): Promise<ImageProviderCall> {
  const { answer, route, attemptCount } = await tryRoutes(
    deps,
    {
      routes: input.routes,
      userId: input.userId,
      modelId: input.modelId,
      signal: input.signal,
      task: 'draw the image',
    },
    async (candidate, { attempt, remainingMs }) => {
      input.onRouteTried?.(candidate);
      const generated = await callRoute(deps, candidate, {
        job: input.job,
        signal: input.signal,
        timeoutMs: Math.max(1, Math.min(input.timeoutMs, remainingMs)),
      });
      attempt.finish({ kind: 'success' });
      return generated;
    },
  );
  return { generated: answer, route, attemptCount };
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
  const connectTimeoutMs =
    route.timeouts?.connectTimeoutMs ?? defaultUpstreamTimeouts({ isStreaming: false }).connectTimeoutMs;
  const deadline = AbortSignal.timeout(input.timeoutMs);
  try {
    const generated = await client({
      provider: route.provider,
      target: { baseUrl: route.baseUrl, credential: route.credential, upstreamModel: route.upstreamModel },
      job: input.job,
      dispatcher: route.timeouts?.connectTimeoutMs
        ? (deps.dispatcherFor?.(connectTimeoutMs) ?? deps.dispatcher)
        : deps.dispatcher,
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
