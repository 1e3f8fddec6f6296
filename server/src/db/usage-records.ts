import { sql } from 'kysely';
import type { Database } from './database.ts';
import { writeLedgerTransaction, type LedgerTransaction } from './ledger.ts';
import type { UsageRecordRow } from './schema.ts';

/**
 * Writes a call's charge and its usage record in one transaction: the ledger debit (idempotent by its key), the
 * usage row and the key's running spend. Returns false when this request was already settled.
 */
export async function recordCharge(
  db: Database,
  input: { ledger: LedgerTransaction; usage: UsageRecordRow },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const isNew = await writeLedgerTransaction(trx, input.ledger);
    if (!isNew) return false;
    await trx
      .insertInto('usage_records')
      .values(input.usage)
      .onConflict((conflict) => conflict.column('request_id').doNothing())
      .execute();
    if (input.usage.api_key_id !== null) {
      await trx
        .updateTable('api_keys')
        .set({
          spent_micros: sql<number>`spent_micros + ${input.usage.cost_micros}`,
          last_used_at: input.usage.created_at,
        })
        .where('id', '=', input.usage.api_key_id)
        .execute();
    }
    return true;
  });
}

export async function findUsageRecord(db: Database, requestId: string): Promise<UsageRecordRow | undefined> {
  return db.selectFrom('usage_records').selectAll().where('request_id', '=', requestId).executeTakeFirst();
}
