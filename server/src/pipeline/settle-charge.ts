import type { CreditHold, CreditHolds } from '../billing/credit-holds.ts';
import type { Database } from '../db/database.ts';
import { userLedgerAccount } from '../db/ledger.ts';
import type { UsageRecordRow } from '../db/schema.ts';
import { recordCharge } from '../db/usage-records.ts';
import type { IdGenerator } from '../lib/ids.ts';
import type { Caller } from './authenticate.ts';

export type SettleChargeDeps = { db: Database; creditHolds: CreditHolds; ids: IdGenerator };

export type Settlement = { costMicros: number; isNew: boolean };

/**
 * Stages 6 and 7 in one commit: captures the call's cost from its hold and writes the usage record in the same
 * database transaction, idempotent by request id, so a completed call's charge and its record survive a crash
 * together or not at all. The capture never exceeds the hold, so no balance goes below zero; the rest of the hold is
 * released. Callers commit this before the client sees the end of the answer.
 */
export async function settleCharge(
  deps: SettleChargeDeps,
  input: { caller: Caller; hold: CreditHold; costMicros: number; usage: Omit<UsageRecordRow, 'cost_micros'> },
): Promise<Settlement> {
  const costMicros = Math.min(input.costMicros, input.hold.heldMicros);
  try {
    const isNew = await recordCharge(deps.db, {
      ledger: {
        id: deps.ids.newId('ltx_'),
        idempotencyKey: `usage:${input.usage.request_id}`,
        kind: 'usage',
        reason: `${input.usage.endpoint} ${input.usage.model_id}`,
        createdAt: input.usage.created_at,
        entries: [
          { account: userLedgerAccount(input.caller.userId), amountMicros: -costMicros },
          { account: 'system:revenue', amountMicros: costMicros },
        ],
      },
      usage: { ...input.usage, cost_micros: costMicros },
    });
    deps.creditHolds.settle(input.hold, isNew ? costMicros : 0);
    if (isNew) input.caller.key.spentMicros += costMicros;
    return { costMicros, isNew };
  } catch (error) {
    deps.creditHolds.release(input.hold);
    throw error;
  }
}
