import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.ts';

/**
 * The ledger invariant (docs/billing.md, "The ledger"), checked after every billing scenario: every user's cached
 * `balance_micros` equals the sum of its ledger entries, every transaction's entries sum to zero, and so do all
 * entries together (double entry: money only moves between accounts). Reads through the gateway's `db`, which
 * waits for settlements still being written, so a charge in flight is seen as soon as it is settled.
 */
export async function assertLedgerBalanced(db: Database): Promise<void> {
  const users = await db.selectFrom('users').select(['id', 'balance_micros']).execute();
  const sums = await db
    .selectFrom('ledger_entries')
    .select(['account', sql<number>`sum(amount_micros)`.as('total')])
    .where('account', 'like', 'user:%')
    .groupBy('account')
    .execute();
  const entrySums = new Map(sums.map((row) => [row.account, Number(row.total)]));
  const mismatched = users.flatMap((user) => {
    const entries = entrySums.get(`user:${user.id}`) ?? 0;
    entrySums.delete(`user:${user.id}`);
    return Number(user.balance_micros) === entries
      ? []
      : [`${user.id}: balance_micros ${user.balance_micros}, entries sum to ${entries}`];
  });
  assert.deepEqual(mismatched, [], 'every cached balance equals the sum of its ledger entries');
  assert.deepEqual([...entrySums.keys()], [], 'no ledger entries for users that do not exist');
  const unbalanced = await db
    .selectFrom('ledger_entries')
    .select(['transaction_id', sql<number>`sum(amount_micros)`.as('total')])
    .groupBy('transaction_id')
    .having(sql<number>`sum(amount_micros)`, '!=', 0)
    .execute();
  assert.deepEqual(
    unbalanced.map((row) => `${row.transaction_id}: ${row.total}`),
    [],
    'the entries of every transaction sum to zero',
  );
  const total = await db
    .selectFrom('ledger_entries')
    .select(sql<number>`coalesce(sum(amount_micros), 0)`.as('total'))
    .executeTakeFirstOrThrow();
  assert.equal(Number(total.total), 0, 'all ledger entries together sum to zero');
}
