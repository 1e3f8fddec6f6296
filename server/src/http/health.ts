import type { FastifyInstance } from 'fastify';
import cluster from 'node:cluster';

export type HealthDeps = {
  /** One trivial query; throws when the database is unreachable. */
  pingDatabase: () => Promise<void>;
  /** The shared Redis when `REDIS_URL` is set: requests need it, so readiness does too. */
  redis: { ping: () => Promise<unknown> } | undefined;
  isShuttingDown: () => boolean;
  /** Web search is optional: a failing or missing engine degrades `/readyz` (still 200) instead of failing it. */
  webSearchHealth: { status: () => 'ok' | 'failing' | 'not_configured' };
};

/**
 * `/healthz`: the process answers (with its `worker` id under PROCESSES > 1). `/readyz`: it should receive traffic (database and Redis reachable, not draining):
 * 200 `ready`, or 200 `degraded` with `web_search` when searches keep failing or no engine is configured (the node
 * still serves everything else), else 503 with the reason.
 */
export function registerHealthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  // Under PROCESSES > 1, which process answered (node:cluster's worker id), so an operator can see all of them serve.
  const worker = cluster.worker?.id;
  app.get('/healthz', async () => (worker === undefined ? { status: 'ok' } : { status: 'ok', worker }));
  app.get('/readyz', async (_request, reply) => {
    if (deps.isShuttingDown()) return reply.status(503).send({ status: 'shutting_down' });
    try {
      await deps.pingDatabase();
    } catch {
      return reply.status(503).send({ status: 'database_unreachable' });
    }
    if (deps.redis) {
      try {
        await deps.redis.ping();
      } catch {
        return reply.status(503).send({ status: 'redis_unreachable' });
      }
    }
    const webSearch = deps.webSearchHealth.status();
    return webSearch === 'ok' ? { status: 'ready' } : { status: 'degraded', web_search: webSearch };
  });
}
