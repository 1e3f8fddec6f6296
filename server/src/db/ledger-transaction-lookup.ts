import type { Database } from './database.ts';
import type { LedgerEntry, LedgerTransaction } from './ledger.ts';

/** The transaction posted under an idempotency key, with its entries; undefined when none was. */
export async function findLedgerTransactionByKey(
  db: Database,
  idempotencyKey: string,
): Promise<LedgerTransaction | undefined> {
  const transaction = await db
    .selectFrom('ledger_transactions')
    .selectAll()
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
  if (!transaction) return undefined;
  const entries = await db
    .selectFrom('ledger_entries')
    .select(['account', 'amount_micros'])
    .where('transaction_id', '=', transaction.id)
    .execute();
  return {
    id: transaction.id,
    idempotencyKey: transaction.idempotency_key,
    kind: transaction.kind,
    reason: transaction.reason,
    createdAt: transaction.created_at,
    entries: entries.map((entry): LedgerEntry => ({ account: entry.account, amountMicros: entry.amount_micros })),
  };
}
