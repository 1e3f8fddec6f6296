import type { Database } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { getRevenueReport } from '../../operator/get-revenue-report.ts';
import { listOperatorUsage } from '../../operator/list-operator-usage.ts';
import type { ApiHandlers } from './endpoint-handler.ts';

export type OperatorReportHandlerDeps = { db: Database; clock: Clock };

/** Usage across every account, and revenue per day and per model. */
export function createOperatorReportHandlers(
  deps: OperatorReportHandlerDeps,
): Pick<ApiHandlers, 'listOperatorUsage' | 'getRevenueReport'> {
  return {
    listOperatorUsage: async ({ query }) => listOperatorUsage(deps, query),
    getRevenueReport: async ({ query }) => getRevenueReport(deps, query),
  };
}
