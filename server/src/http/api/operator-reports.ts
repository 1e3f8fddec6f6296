import type { FastifyInstance } from 'fastify';
import { operatorUsageQuerySchema, revenueQuerySchema } from '../../../../contract/operator.ts';
import type { Database } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { parseWireRequest } from '../../openai-api/parse-request.ts';
import { getRevenueReport } from '../../operator/get-revenue-report.ts';
import { listOperatorUsage } from '../../operator/list-operator-usage.ts';
import type { SessionGuard } from '../middleware/session.ts';
import { requireOperator } from './operator-guard.ts';

export type OperatorReportRouteDeps = { db: Database; clock: Clock; sessions: SessionGuard };

/** Usage across every account, and revenue per day and per model. */
export function registerOperatorReportRoutes(app: FastifyInstance, deps: OperatorReportRouteDeps): void {
  app.get('/api/operator/usage', async (request) => {
    requireOperator(deps.sessions, request);
    return listOperatorUsage(deps, parseWireRequest(operatorUsageQuerySchema, request.query));
  });

  app.get('/api/operator/revenue', async (request) => {
    requireOperator(deps.sessions, request);
    return getRevenueReport(deps, parseWireRequest(revenueQuerySchema, request.query));
  });
}
