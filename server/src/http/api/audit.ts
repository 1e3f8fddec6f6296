import type { Database } from '../../db/database.ts';
import { listAuditEvents } from '../../operator/list-audit-events.ts';
import type { ApiHandlers } from './endpoint-handler.ts';

/** The operator's search of the audit log. */
export function createAuditHandlers(deps: { db: Database }): Pick<ApiHandlers, 'listAuditEvents'> {
  return { listAuditEvents: async ({ query }) => listAuditEvents(deps, query) };
}
