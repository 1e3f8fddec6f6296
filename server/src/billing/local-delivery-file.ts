import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Database } from '../db/database.ts';
import { privateFileMode } from '../db/create-private-file.ts';
import { parseJournalLine } from '../db/settlement-journal.ts';
import { findUsageRecord, recordCharges } from '../db/usage-records.ts';

/**
 * A single node without Redis keeps its streams' delivery checkpoints in one file beside its settlement journal
 * (`DATA_DIR/settlements/deliveries.ndjson`), rewritten whole (write, then rename) when any is due: a `kill -9`
 * leaves the last complete version, which the next start bills (docs/billing.md).
 */
export function createLocalDeliveryFile(filePath: string) {
  const current = new Map<string, string>();
  return {
    write: async (checkpoints: ReadonlyArray<[string, string]>, closed: readonly string[]) => {
      for (const holdId of closed) current.delete(holdId);
      for (const [holdId, charge] of checkpoints) current.set(holdId, charge);
      if (current.size === 0) {
        rmSync(filePath, { force: true });
        return;
      }
      const temporary = `${filePath}.next`;
      writeFileSync(temporary, [...current.values()].map((charge) => `${charge}\n`).join(''), {
        mode: privateFileMode,
      });
      renameSync(temporary, filePath);
    },
  };
}

/**
 * At start, after the journal is replayed: bills the checkpoints the previous process left for streams it never
 * settled. A call that has a usage record already (settled, or recorded as failed) is skipped; the rest are
 * idempotent by request id. Returns how many were billed and whose accounts they were.
 */
export async function recoverLocalDeliveries(deps: {
  db: Database;
  filePath: string;
}): Promise<{ chargeCount: number; userIds: string[] }> {
  if (!existsSync(deps.filePath)) return { chargeCount: 0, userIds: [] };
  const lines = readFileSync(deps.filePath, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  const unsettled = [];
  for (const charge of lines.map(parseJournalLine)) {
    if (charge && !(await findUsageRecord(deps.db, charge.usage.request_id))) unsettled.push(charge);
  }
  if (unsettled.length > 0) await recordCharges(deps.db, unsettled);
  rmSync(deps.filePath, { force: true });
  return { chargeCount: unsettled.length, userIds: [...new Set(unsettled.map((charge) => charge.usage.user_id))] };
}
