import { deleteUsageRecordsBefore } from '../db/account-deletion.ts';
import type { Database } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';

const dayMs = 24 * 60 * 60 * 1000;

/**
 * The retention pass: deletes usage records older than the operator's retention. Balances are unaffected (they are
 * the ledger's sums, not the usage records'); only the per-call history and the reports built on it get shorter.
 */
export async function pruneUsageRecords(deps: { db: Database; clock: Clock; retentionDays: number }): Promise<number> {
  if (deps.retentionDays <= 0) return 0;
  return deleteUsageRecordsBefore(deps.db, { beforeMs: deps.clock.nowMs() - deps.retentionDays * dayMs });
}
