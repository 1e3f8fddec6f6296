import type { FastifyInstance } from 'fastify';
import type { OpenCalls } from '../open-calls.ts';
import type { HotRoutes } from '../hot-routes.ts';
import { registerChatCompletionRoutes, type ChatCompletionsRouteDeps } from './chat-completions.ts';
import { registerImageRoutes, type ImagesRouteDeps } from './images.ts';
import { registerEmbeddingRoutes } from './embeddings.ts';
import { registerCompletionRoutes } from './completions.ts';
import { registerMessagesRoutes } from './messages.ts';
import { registerModelRoutes, type ModelsRouteDeps } from './models.ts';
import { registerResponsesRoutes, type ResponsesRouteDeps } from './responses.ts';

export type V1Deps = ModelsRouteDeps &
  ChatCompletionsRouteDeps &
  ImagesRouteDeps &
  ResponsesRouteDeps & {
    /** Tracks the calls in flight so a credit fence can end them (`http/open-calls.ts`). */
    openCalls?: OpenCalls;
    bodyLimitBytes: number;
  };

/**
 * Mounts the `/v1` API. Each route gets an object of exactly the dependencies its type names, built here, never the
 * composition root's whole bag: what a route can reach is what its type says.
 */
export function registerV1Routes(app: FastifyInstance, deps: V1Deps, hotRoutes: Pick<HotRoutes, 'serve'>): void {
  deps.openCalls?.track(app);
  const caller = {
    apiKeyCache: deps.apiKeyCache,
    clock: deps.clock,
    rateLimiter: deps.rateLimiter,
    accountTerms: deps.accountTerms,
    concurrencyLimiter: deps.concurrencyLimiter,
  };
  const charge = {
    db: deps.db,
    creditHolds: deps.creditHolds,
    settlements: deps.settlements,
    ids: deps.ids,
    spendCapHolds: deps.spendCapHolds,
    spendBudgets: deps.spendBudgets,
  };
  const catalog = { priceList: deps.priceList, routeTable: deps.routeTable, upstream: deps.upstream };
  const chat: ChatCompletionsRouteDeps = {
    ...caller,
    ...charge,
    ...catalog,
    keepAliveIntervalMs: deps.keepAliveIntervalMs,
  };
  registerModelRoutes(app, {
    apiKeyCache: deps.apiKeyCache,
    clock: deps.clock,
    priceList: deps.priceList,
    routeTable: deps.routeTable,
    imagePriceTiers: deps.imagePriceTiers,
  });
  registerChatCompletionRoutes(app, { ...chat, bodyLimitBytes: deps.bodyLimitBytes }, hotRoutes);
  registerImageRoutes(app, {
    ...caller,
    ...charge,
    ...catalog,
    imagePriceTiers: deps.imagePriceTiers,
    imageTimeoutMs: deps.imageTimeoutMs,
  });
  registerMessagesRoutes(
    app,
    { ...chat, searchEngine: deps.searchEngine, bodyLimitBytes: deps.bodyLimitBytes },
    hotRoutes,
  );
  registerEmbeddingRoutes(app, chat);
  registerCompletionRoutes(app, chat);
  registerResponsesRoutes(
    app,
    {
      ...chat,
      searchEngine: deps.searchEngine,
      nativeSearchProviders: deps.nativeSearchProviders,
      bodyLimitBytes: deps.bodyLimitBytes,
    },
    hotRoutes,
  );
}
