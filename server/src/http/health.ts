import type { FastifyInstance } from 'fastify';

export type HealthDeps = {
  /** One trivial query; throws when the database is unreachable. */
  pingDatabase: () => Promise<void>;
  /** The shared Redis when `REDIS_URL` is set: requests need it, so readiness does too. */
  redis: { ping: () => Promise<unknown> } | undefined;
  isShuttingDown: () => boolean;
  /** Web search is optional: a failing or missing engine degrades `/readyz` (still 200) instead of failing it. */
  webSearchHealth: { status: () => 'ok' | 'failing' | 'not_configured' };
  /** Under PROCESSES > 1: this process's slot and the slots serving now, as the launcher last said. */
  processes: { slot: number; readProcesses: () => { up: readonly number[]; processes: number } } | undefined;
};

/** Which process answered and which of its siblings serve, under PROCESSES > 1 (nothing otherwise). */
function describeProcesses(deps: HealthDeps): { worker?: number; workers_up?: number[]; processes?: number } {
  if (deps.processes === undefined) return {};
  const { up, processes } = deps.processes.readProcesses();
  return { worker: deps.processes.slot, workers_up: [...up].sort((a, b) => a - b), processes };
}

/**
 * `/healthz`: the process answers. `/readyz`: it should receive traffic (database and Redis reachable, not draining):
 * 200 `ready`, or 200 `degraded` with `web_search` when searches keep failing or no engine is configured (the node
 * still serves everything else), else 503 with the reason. Under PROCESSES > 1 both name the process that answered
 * (`worker`, its slot) and the slots serving (`workers_up` of `processes`); fewer than all is `degraded`, still 200,
 * since the port keeps serving through the rest (the launcher hands connections only to live processes).
 */
export function registerHealthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  app.get('/healthz', async () => ({ status: 'ok', ...describeProcesses(deps) }));
  app.get('/readyz', async (_request, reply) => {
    if (deps.isShuttingDown()) return reply.status(503).send({ status: 'shutting_down', ...describeProcesses(deps) });
    try {
      await deps.pingDatabase();
    } catch {
      return reply.status(503).send({ status: 'database_unreachable', ...describeProcesses(deps) });
    }
    if (deps.redis) {
      try {
        await deps.redis.ping();
      } catch {
        return reply.status(503).send({ status: 'redis_unreachable', ...describeProcesses(deps) });
      }
    }
    const processes = describeProcesses(deps);
    const webSearch = deps.webSearchHealth.status();
    const isEveryProcessUp = (processes.workers_up?.length ?? 0) >= (processes.processes ?? 0);
    if (webSearch === 'ok' && isEveryProcessUp) return { status: 'ready', ...processes };
    return { status: 'degraded', ...(webSearch === 'ok' ? {} : { web_search: webSearch }), ...processes };
  });
}
