import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { pingDatabase } from '../db/database.ts';

export type HealthDeps = { db: Database; isShuttingDown: () => boolean };

/** `/healthz`: the process answers. `/readyz`: it should receive traffic (database reachable, not draining). */
export function registerHealthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    if (deps.isShuttingDown()) return reply.status(503).send({ status: 'shutting_down' });
    try {
      await pingDatabase(deps.db);
      return { status: 'ready' };
    } catch {
      return reply.status(503).send({ status: 'database_unreachable' });
    }
  });
}
