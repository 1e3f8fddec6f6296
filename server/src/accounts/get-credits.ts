import type { Credits } from '../../../contract/key-info.ts';
import type { Database } from '../db/database.ts';
import { sumLedgerAccountByKind, userLedgerAccount } from '../db/ledger.ts';
import { microsToUsd } from '../lib/money.ts';

/** Ledger kinds that spend the balance; every other kind credits (or corrects) it. */
const spendingKinds: ReadonlySet<string> = new Set(['usage', 'subscription']);

/**
 * `GET /v1/credits` in OpenRouter's shape, from the ledger: `total_usage` is what calls and subscriptions spent,
 * `total_credits` the net of everything else (welcome balance, top-ups, adjustments, refunds), so that
 * `total_credits - total_usage` is exactly the balance.
 */
export async function getCredits(deps: { db: Database }, userId: string): Promise<Credits> {
  const totals = await sumLedgerAccountByKind(deps.db, userLedgerAccount(userId));
  let creditsMicros = 0;
  let usageMicros = 0;
  for (const [kind, totalMicros] of Object.entries(totals)) {
    if (spendingKinds.has(kind)) usageMicros -= totalMicros;
    else creditsMicros += totalMicros;
  }
  return { data: { total_credits: microsToUsd(creditsMicros), total_usage: microsToUsd(usageMicros) } };
}
