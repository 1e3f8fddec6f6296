import type { Dispatcher } from 'undici';
import type { Route } from '../catalog/route-table.ts';
import { UpstreamFailureError, type UpstreamFailure } from '../providers/provider-adapter.ts';
import { defaultUpstreamTimeouts } from '../providers/shared/upstream-timeouts.ts';
import type { Routing } from '../routing/create-routing.ts';
import { tryRoutes } from '../routing/try-routes.ts';
import type { EmbeddingInput, Embedded } from './embedding-client.ts';
import { findEmbeddingClient } from './find-embedding-client.ts';

export type CallEmbeddingProviderDeps = {
  dispatcher: Dispatcher;
  /** The dispatcher of a route whose connect timeout differs from the default (undici sets it per pool). */
  dispatcherFor?: (connectTimeoutMs: number) => Dispatcher;
  /** Told about each failed attempt (for logs); never sees the input. */
  onAttemptFailed?: (route: Route, failure: UpstreamFailure) => void;
  /** The routing policy, route health, the retry budget and the deadline: the same as chat's (docs/routing.md). */
  routing: Routing;
};

export type EmbeddingProviderCall = { embedded: Embedded; route: Route };

/**
 * Tries the routes in the order of the routing policy, as chat does (`tryRoutes`): a connection error, timeout, 429,
 * 5xx, our credential refused, a malformed answer or a route whose vendor serves no embedding API moves on to the next
 * route; a failure caused by the request is returned at once. Nothing reaches the client before a route answered.
 */
export async function callEmbeddingProvider(
  deps: CallEmbeddingProviderDeps,
  input: {
    routes: readonly Route[];
    inputs: readonly EmbeddingInput[];
    dimensions: number | undefined;
    signal: AbortSignal;
    modelId: string;
    userId: string;
    onRouteTried: (route: Route) => void;
  },
): Promise<EmbeddingProviderCall> {
  const { answer, route } = await tryRoutes(
    deps,
    {
      routes: input.routes,
      userId: input.userId,
      modelId: input.modelId,
      signal: input.signal,
      task: 'embed the input',
    },
    async (candidate, { attempt, remainingMs }) => {
      input.onRouteTried(candidate);
      const embedded = await callRoute(deps, candidate, { ...input, remainingMs });
      attempt.finish({ kind: 'success' });
      return embedded;
    },
  );
  return { embedded: answer, route };
}

async function callRoute(
  deps: CallEmbeddingProviderDeps,
  route: Route,
  input: {
    inputs: readonly EmbeddingInput[];
    dimensions: number | undefined;
    signal: AbortSignal;
    remainingMs: number;
  },
): Promise<Embedded> {
  const client = findEmbeddingClient(route.provider);
  if (!client) {
    throw new UpstreamFailureError({
      kind: 'credential',
      status: 404,
      message: `The route's provider type \`${route.provider}\` serves no embedding API.`,
      vendorCode: 'no_embedding_client',
    });
  }
  const defaults = defaultUpstreamTimeouts({ isStreaming: false });
  const connectTimeoutMs = route.timeouts?.connectTimeoutMs ?? defaults.connectTimeoutMs;
  const answerTimeoutMs = Math.max(
    1,
    Math.min(route.timeouts?.firstByteTimeoutMs ?? defaults.firstByteTimeoutMs, input.remainingMs),
  );
  return client({
    provider: route.provider,
    target: { baseUrl: route.baseUrl, credential: route.credential, upstreamModel: route.upstreamModel },
    inputs: input.inputs,
    dimensions: input.dimensions,
    dispatcher: route.timeouts?.connectTimeoutMs
      ? (deps.dispatcherFor?.(connectTimeoutMs) ?? deps.dispatcher)
      : deps.dispatcher,
    signal: input.signal,
    timeouts: { connectTimeoutMs, firstByteTimeoutMs: answerTimeoutMs, idleTimeoutMs: answerTimeoutMs },
  });
}
