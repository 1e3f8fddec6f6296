import { bumpCacheVersion } from '../db/cache-versions.ts';
import type { Transaction } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import { userLedgerAccount, writeLedgerTransaction } from '../db/ledger.ts';

/**
 * Credits the welcome balance through the ledger, inside the caller's transaction. The idempotency key is the
 * account's (`welcome:<user id>`), so an account gets it once, whichever moment credits it (sign-up, verification,
 * first payment) and however often that moment repeats.
 */
export async function creditWelcomeBalance(
  trx: Transaction<DatabaseSchema>,
  input: { userId: string; amountMicros: number; transactionId: string; nowMs: number },
): Promise<boolean> {
  if (input.amountMicros <= 0) return false;
  const isPosted = await writeLedgerTransaction(trx, {
    id: input.transactionId,
    idempotencyKey: `welcome:${input.userId}`,
    kind: 'welcome',
    reason: 'welcome balance',
    createdAt: input.nowMs,
    entries: [
      { account: userLedgerAccount(input.userId), amountMicros: input.amountMicros },
      { account: 'system:welcome-bonus', amountMicros: -input.amountMicros },
    ],
  });
  // Like every ledger post that is not a node's own settlement: nodes reload the balances they cache.
  if (isPosted) await bumpCacheVersion(trx, 'balances');
  return isPosted;
}
