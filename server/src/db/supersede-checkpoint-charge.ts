import { sql, type Transaction } from 'kysely';
import { userLedgerAccount, writeLedgerTransactionWithBalances, type BalanceSnapshot } from './ledger.ts';
import type { DatabaseSchema } from './schema.ts';
import type { JournaledCharge } from './settlement-journal.ts';

/**
 * The error code of a charge built from a stream's delivery checkpoint: what the node that reaps a lost node (or a
 * single node's restart) bills for a stream it cannot see end. Such a charge is provisional: the stream may still be
 * running on a node that was only cut off, and its own final charge then supersedes it.
 */
export const checkpointErrorCode = 'gateway_node_lost';

/** True for a usage row or charge written from a delivery checkpoint rather than by the call's own settlement. */
export function isCheckpointCharge(usage: { status: string; error_code: string | null }): boolean {
  return usage.status === 'interrupted' && usage.error_code === checkpointErrorCode;
}

/** The ledger key of the correction that brings a checkpoint charge up (or down) to the call's final charge. */
export function finalChargeKey(idempotencyKey: string): string {
  return `${idempotencyKey}:final`;
}

/**
 * A call's final charge arrived after its request was already billed (`usage:<request id>` exists). When what was
 * billed is a checkpoint charge, the final charge supersedes it (docs/billing.md, "What supersedes what"): the
 * difference (positive or negative: the vendor's final counts can be below a size estimate) is posted under its own
 * ledger key, `usage:<request id>:final`, and the usage row and the key's spending are brought to the final figures.
 * That key makes it happen once however often the final charge is written (a journal replay, the reaper's copy of
 * it and the node's own writer racing): a second writer finds the key taken and changes nothing. A checkpoint never
 * supersedes anything, and a final charge never supersedes another final one. Returns the balances the correction
 * left, or undefined when the charge changed nothing.
 */
export async function supersedeCheckpointCharge(
  trx: Transaction<DatabaseSchema>,
  charge: JournaledCharge,
): Promise<BalanceSnapshot[] | undefined> {
  const { usage } = charge;
  if (isCheckpointCharge(usage)) return undefined;
  const billed = await trx
    .selectFrom('usage_records')
    .select(['user_id', 'status', 'error_code', 'cost_micros'])
    .where('request_id', '=', usage.request_id)
    .executeTakeFirst();
  if (!billed || !isCheckpointCharge(billed) || billed.user_id !== usage.user_id) return undefined;
  const differenceMicros = usage.cost_micros - Number(billed.cost_micros);
  const balances = await writeLedgerTransactionWithBalances(trx, {
    id: `${charge.ledger.id}_final`,
    idempotencyKey: finalChargeKey(charge.ledger.idempotencyKey),
    kind: 'usage',
    reason: `${charge.ledger.reason} (final charge after a checkpoint)`,
    createdAt: charge.ledger.createdAt,
    entries: [
      { account: userLedgerAccount(usage.user_id), amountMicros: -differenceMicros },
      { account: 'system:revenue', amountMicros: differenceMicros },
    ],
  });
  if (!balances) return undefined;
  const { request_id: requestId, ...figures } = usage;
  await trx.updateTable('usage_records').set(figures).where('request_id', '=', requestId).execute();
  if (usage.api_key_id !== null) {
    await trx
      .updateTable('api_keys')
      .set({ spent_micros: sql<number>`spent_micros + ${differenceMicros}`, last_used_at: usage.created_at })
      .where('id', '=', usage.api_key_id)
      .execute();
  }
  return balances;
}
