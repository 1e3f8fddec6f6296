import type { Balance } from '../../../contract/balance.ts';
import type { Database } from '../db/database.ts';
import { listLedgerEntries, userLedgerAccount } from '../db/ledger.ts';
import { microsToUsd } from '../lib/money.ts';
import { getBalanceMicros, type HeldCredits } from './get-balance-micros.ts';

const recentEntryCount = 50;

/** The balance, the part held by calls in flight, what is available, and the latest ledger entries. */
export async function getBalance(deps: { db: Database; creditHolds: HeldCredits }, userId: string): Promise<Balance> {
  const balance = await getBalanceMicros(deps, userId);
  const entries = await listLedgerEntries(deps.db, { account: userLedgerAccount(userId), limit: recentEntryCount });
  return {
    balance_usd: microsToUsd(balance.balanceMicros),
    held_usd: microsToUsd(balance.heldMicros),
    available_usd: microsToUsd(balance.availableMicros),
    entries: entries.map((entry) => ({
      transaction_id: entry.transaction_id,
      kind: entry.kind,
      reason: entry.reason,
      amount_usd: microsToUsd(entry.amount_micros),
      created_at: new Date(entry.created_at).toISOString(),
    })),
  };
}
