import { exportUsageCsv } from '../../accounts/export-usage-csv.ts';
import { listDailyUsage } from '../../accounts/list-daily-usage.ts';
import { listUsage } from '../../accounts/list-usage.ts';
import type { Database } from '../../db/database.ts';
import type { ApiHandlers } from './endpoint-handler.ts';

export type UsageHandlerDeps = { db: Database };

/** The signed-in account's calls: a page of rows, daily totals, and a CSV export. Never any prompt text. */
export function createUsageHandlers(
  deps: UsageHandlerDeps,
): Pick<ApiHandlers, 'listUsage' | 'listDailyUsage' | 'exportUsageCsv'> {
  return {
    listUsage: async ({ session, query }) => listUsage(deps, { userId: session.userId, query }),
    listDailyUsage: async ({ session, query }) => listDailyUsage(deps, { userId: session.userId, query }),
    exportUsageCsv: async ({ session, query, reply }) => {
      const { csv, isTruncated } = await exportUsageCsv(deps, { userId: session.userId, query });
      reply
        .header('content-type', 'text/csv; charset=utf-8; header=present')
        .header('content-disposition', 'attachment; filename="usage.csv"')
        .header('x-csv-truncated', String(isTruncated));
      return csv;
    },
  };
}
