import { sql } from 'kysely';
import type { Transaction } from 'kysely';
import type { Database } from './database.ts';
import type { DatabaseSchema } from './schema.ts';
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

/** The user whose balance a ledger account is (`user:<id>`), or undefined for the operator's side of the books. */
export function userIdOfLedgerAccount(account: string): string | undefined {
  return account.startsWith(userAccountPrefix) ? account.slice(userAccountPrefix.length) : undefined;
}

/**
 * Posts a transaction that did not come from this node's own settlement (welcome credit, top-up, operator
 * adjustment) and tells every node to reload the balances it caches.
 */
export async function postLedgerTransaction(db: Database, transaction: LedgerTransaction): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const isPosted = await writeLedgerTransaction(trx, transaction);
    if (isPosted) {
      await trx
        .updateTable('cache_versions')
        .set({ version: sql<number>`version + 1` })
        .where('name', '=', 'balances')
        .execute();
    }
    return isPosted;
  });
}

/** A user's balance as one commit left it; `version` orders snapshots (migration 0011). */
export type BalanceSnapshot = { userId: string; balanceMicros: number; version: number };

/** Every transaction's entries sum to zero: money only moves between accounts. */
export function assertBalanced(transaction: LedgerTransaction): void {
  const total = transaction.entries.reduce((sum, entry) => sum + entry.amountMicros, 0);
  if (total !== 0) throw new Error(`unbalanced ledger transaction ${transaction.idempotencyKey}: sums to ${total}`);
}

/** The body of `postLedgerTransaction`, for callers that group it with other writes in their own transaction. */
export async function writeLedgerTransaction(
  trx: Transaction<DatabaseSchema>,
  transaction: LedgerTransaction,
): Promise<boolean> {
  return (await writeLedgerTransactionWithBalances(trx, transaction)) !== undefined;
}

/**
 * Writes a balanced transaction once per idempotency key, and moves the cached balances of the users it touches in
 * the same database transaction, raising each one's balance version. Returns the users' balances after it, or
 * undefined (and changes nothing) when the key was already used.
 */
export async function writeLedgerTransactionWithBalances(
  trx: Transaction<DatabaseSchema>,
  transaction: LedgerTransaction,
): Promise<BalanceSnapshot[] | undefined> {
  assertBalanced(transaction);
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
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return undefined;
  const entries = transaction.entries.filter((entry) => entry.amountMicros !== 0);
  if (entries.length > 0) {
    await trx
      .insertInto('ledger_entries')
      .values(
        entries.map((entry) => ({
          transaction_id: transaction.id,
          account: entry.account,
          amount_micros: entry.amountMicros,
        })),
      )
      .execute();
  }
  const balances: BalanceSnapshot[] = [];
  for (const entry of entries) {
    const userId = userIdOfLedgerAccount(entry.account);
    if (userId === undefined) continue;
    const row = await trx
      .updateTable('users')
      .set({
        balance_micros: sql<number>`balance_micros + ${entry.amountMicros}`,
        balance_version: sql<number>`balance_version + 1`,
      })
      .where('id', '=', userId)
      .returning(['id', 'balance_micros', 'balance_version'])
      .executeTakeFirst();
    if (row) balances.push({ userId: row.id, balanceMicros: row.balance_micros, version: row.balance_version });
  }
  return balances;
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

/** One entry of an account with its transaction's kind, reason and time. */
export type LedgerEntryWithTransaction = {
  transaction_id: string;
  kind: LedgerTransactionsTable['kind'];
  reason: string;
  amount_micros: number;
  created_at: number;
};

/** The newest entries of an account, newest first. */
export async function listLedgerEntries(
  db: Database,
  input: { account: string; limit: number },
): Promise<LedgerEntryWithTransaction[]> {
  return db
    .selectFrom('ledger_entries')
    .innerJoin('ledger_transactions', 'ledger_transactions.id', 'ledger_entries.transaction_id')
    .select([
      'ledger_entries.transaction_id',
      'ledger_transactions.kind',
      'ledger_transactions.reason',
      'ledger_entries.amount_micros',
      'ledger_transactions.created_at',
    ])
    .where('ledger_entries.account', '=', input.account)
    .orderBy('ledger_transactions.created_at', 'desc')
    .orderBy('ledger_entries.transaction_id', 'desc')
    .limit(input.limit)
    .execute();
}

/** The sum of an account's entries per transaction kind (kinds without entries are absent). */
export async function sumLedgerAccountByKind(
  db: Database,
  account: string,
): Promise<Partial<Record<LedgerTransactionsTable['kind'], number>>> {
  const rows = await db
    .selectFrom('ledger_entries')
    .innerJoin('ledger_transactions', 'ledger_transactions.id', 'ledger_entries.transaction_id')
    .select(['ledger_transactions.kind', sql<number>`sum(ledger_entries.amount_micros)`.as('total')])
    .where('ledger_entries.account', '=', account)
    .groupBy('ledger_transactions.kind')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.kind, Number(row.total)]));
}
