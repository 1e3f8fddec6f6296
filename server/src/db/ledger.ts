import { sql } from 'kysely';
import type { Database } from './database.ts';
import type { LedgerTransactionsTable } from './schema.ts';

export type LedgerEntry = { account: string; amountMicros: number };

export type LedgerTransaction = {
  id: string;
  idempotencyKey: string;
  kind: LedgerTransactionsTable['kind'];
  reason: string;
  createdAt: number;
  entries: readonly LedgerEntry[];
};

const userAccountPrefix = 'user:';

export function userLedgerAccount(userId: string): string {
  return `${userAccountPrefix}${userId}`;
}

/**
 * Writes a balanced transaction once per idempotency key, and moves the cached balances of the users it touches in
 * the same database transaction. Returns false (and changes nothing) when the key was already used.
 */
export async function postLedgerTransaction(db: Database, transaction: LedgerTransaction): Promise<boolean> {
  const total = transaction.entries.reduce((sum, entry) => sum + entry.amountMicros, 0);
  if (total !== 0) throw new Error(`unbalanced ledger transaction ${transaction.idempotencyKey}: sums to ${total}`);
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('ledger_transactions')
      .values({
        id: transaction.id,
        idempotency_key: transaction.idempotencyKey,
        kind: transaction.kind,
        reason: transaction.reason,
        created_at: transaction.createdAt,
      })
      .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    await trx
      .insertInto('ledger_entries')
      .values(
        transaction.entries.map((entry) => ({
          transaction_id: transaction.id,
          account: entry.account,
          amount_micros: entry.amountMicros,
        })),
      )
      .execute();
    for (const entry of transaction.entries) {
      if (!entry.account.startsWith(userAccountPrefix)) continue;
      await trx
        .updateTable('users')
        .set({ balance_micros: sql<number>`balance_micros + ${entry.amountMicros}` })
        .where('id', '=', entry.account.slice(userAccountPrefix.length))
        .execute();
    }
    return true;
  });
}

/** The sum of an account's entries: the definition of its balance. */
export async function sumLedgerAccount(db: Database, account: string): Promise<number> {
  const row = await db
    .selectFrom('ledger_entries')
    .select(sql<number>`coalesce(sum(amount_micros), 0)`.as('total'))
    .where('account', '=', account)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}
