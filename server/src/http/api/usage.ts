import type { FastifyInstance } from 'fastify';
import { usageFilterQuerySchema, usageQuerySchema } from '../../../../contract/usage.ts';
import { exportUsageCsv } from '../../accounts/export-usage-csv.ts';
import { listDailyUsage } from '../../accounts/list-daily-usage.ts';
import { listUsage } from '../../accounts/list-usage.ts';
import type { Database } from '../../db/database.ts';
import { parseWireRequest } from '../../openai-api/parse-request.ts';
import type { SessionGuard } from '../middleware/session.ts';

export type UsageRouteDeps = { db: Database; sessions: SessionGuard };

/** The signed-in account's calls: a page of rows, daily totals, and a CSV export. Never any prompt text. */
export function registerUsageRoutes(app: FastifyInstance, deps: UsageRouteDeps): void {
  app.get('/api/usage', async (request) => {
    const { userId } = deps.sessions.requireSession(request);
    return listUsage(deps, { userId, query: parseWireRequest(usageQuerySchema, request.query) });
  });

  app.get('/api/usage/daily', async (request) => {
    const { userId } = deps.sessions.requireSession(request);
    return listDailyUsage(deps, { userId, query: parseWireRequest(usageFilterQuerySchema, request.query) });
  });

  app.get('/api/usage.csv', async (request, reply) => {
    const { userId } = deps.sessions.requireSession(request);
    const query = parseWireRequest(usageFilterQuerySchema, request.query);
    const { csv, isTruncated } = await exportUsageCsv(deps, { userId, query });
    return reply
      .header('content-type', 'text/csv; charset=utf-8; header=present')
      .header('content-disposition', 'attachment; filename="usage.csv"')
      .header('x-csv-truncated', String(isTruncated))
      .send(csv);
  });
}
