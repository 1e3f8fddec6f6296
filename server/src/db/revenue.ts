import { sql } from 'kysely';
import type { Database } from './database.ts';

/** The operator's income accounts of the ledger: what calls and subscriptions brought in. */
export const revenueLedgerAccounts = { usage: 'system:revenue', subscriptions: 'system:subscriptions' } as const;

/** One UTC day's income, micro-USD, net of any reversal in the same account. */
export type DailyRevenue = { dayNumber: number; usageMicros: number; subscriptionMicros: number };

const msPerDay = 86_400_000;

/**
 * Income per UTC day (days since the Unix epoch) in `[fromMs, toMs)`, oldest first, read from the ledger's income
 * accounts, so it equals what balances were debited.
 */
export async function summarizeDailyRevenue(
  db: Database,
  input: { fromMs: number; toMs: number },
): Promise<DailyRevenue[]> {
  const day = sql<number>`ledger_transactions.created_at / ${sql.lit(msPerDay)}`;
  const rows = await db
    .selectFrom('ledger_entries')
    .innerJoin('ledger_transactions', 'ledger_transactions.id', 'ledger_entries.transaction_id')
    .select([
      day.as('day_number'),
      'ledger_entries.account',
      sql<number>`sum(ledger_entries.amount_micros)`.as('total'),
    ])
    .where('ledger_entries.account', 'in', Object.values(revenueLedgerAccounts))
    .where('ledger_transactions.created_at', '>=', input.fromMs)
    .where('ledger_transactions.created_at', '<', input.toMs)
    .groupBy([day, 'ledger_entries.account'])
    .orderBy(day)
    .execute();
  const byDay = new Map<number, DailyRevenue>();
  for (const row of rows) {
    const dayNumber = Number(row.day_number);
    const entry = byDay.get(dayNumber) ?? { dayNumber, usageMicros: 0, subscriptionMicros: 0 };
    if (row.account === revenueLedgerAccounts.usage) entry.usageMicros += Number(row.total);
    else entry.subscriptionMicros += Number(row.total);
    byDay.set(dayNumber, entry);
  }
  return [...byDay.values()];
}

/** One UTC day's cost of goods: what the calls of that day cost us upstream, micro-USD. */
export type DailyCost = { dayNumber: number; upstreamCostMicros: number };

/**
 * Cost of goods per UTC day in `[fromMs, toMs)`, oldest first, summed from each usage record's route cost (recorded
 * when the call settled, so a later change of a route's cost does not rewrite the past). Calls without a recorded
 * cost (no route answered, or made before costs were recorded) count 0.
 */
export async function summarizeDailyCost(db: Database, input: { fromMs: number; toMs: number }): Promise<DailyCost[]> {
  const day = sql<number>`usage_records.created_at / ${sql.lit(msPerDay)}`;
  const rows = await db
    .selectFrom('usage_records')
    .select([day.as('day_number'), sql<number>`coalesce(sum(upstream_cost_micros), 0)`.as('total')])
    .where('created_at', '>=', input.fromMs)
    .where('created_at', '<', input.toMs)
    .groupBy(day)
    .orderBy(day)
    .execute();
  return rows.map((row) => ({ dayNumber: Number(row.day_number), upstreamCostMicros: Number(row.total) }));
}
