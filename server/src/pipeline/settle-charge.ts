import type { CreditHold, CreditHolds } from '../billing/credit-holds.ts';
import type { SettlementWriter } from '../billing/settlement-writer.ts';
import type { Database } from '../db/database.ts';
import type { JournaledCharge } from '../db/settlement-journal.ts';
import { userLedgerAccount } from '../db/ledger.ts';
import type { UsageRecordRow } from '../db/schema.ts';
import type { IdGenerator } from '../lib/ids.ts';
import { countPeriodSpend } from '../limits/spend-budgets.ts';
import type { Caller } from './authenticate.ts';

/** `db` writes the usage rows of calls that failed without a charge; charges go through `settlements`. */
export type SettleChargeDeps = {
  db: Database;
  creditHolds: CreditHolds;
  settlements: SettlementWriter;
  ids: IdGenerator;
};

export type Settlement = { costMicros: number };

type ChargeInput = { caller: Caller; hold: CreditHold; costMicros: number; usage: Omit<UsageRecordRow, 'cost_micros'> };

/**
 * The ledger debit and usage record of a call, as the journal keeps them: the cost never more than the hold (no
 * overdraw), never below zero (a charge never credits). Idempotent by request id, so a checkpoint of a stream and
 * its final charge can never both be counted.
 */
export function buildUsageCharge(
  ids: IdGenerator,
  input: ChargeInput,
): { charge: JournaledCharge; costMicros: number } {
  const costMicros = Math.max(0, Math.min(input.costMicros, input.hold.heldMicros));
  const charge: JournaledCharge = {
    ledger: {
      id: ids.newTimeOrderedId('ltx_'),
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
  };
  return { charge, costMicros };
}

/**
 * Stages 6 and 7 together: the call's ledger debit and its usage record go to the settlement journal as one line,
 * which survives a crash, and are written to the database together, in one transaction, right after; both are
 * idempotent by request id. The capture never exceeds the hold, so no balance goes below zero; the rest of the hold
 * is released. Callers settle before the client sees the end of the answer, so a completed call is always charged.
 */
export async function settleCharge(deps: SettleChargeDeps, input: ChargeInput): Promise<Settlement> {
  const { charge, costMicros } = buildUsageCharge(deps.ids, input);
  try {
    await deps.settlements.submit({
      charge,
      hold: input.hold,
      capturedMicros: costMicros,
    });
    input.caller.key.spentMicros += costMicros;
    countPeriodSpend(input.caller.key, costMicros, input.usage.created_at);
    return { costMicros };
  } catch (error) {
    await deps.creditHolds.release(input.hold);
    throw error;
  }
}
