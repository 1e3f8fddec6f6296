import { sql } from 'kysely';
import type { Database } from './database.ts';
import { writeLedgerTransaction, type LedgerTransaction } from './ledger.ts';
import type { SubscriptionRow } from './schema.ts';

export async function findSubscription(db: Database, userId: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** The subscriptions (running or ended) of the given accounts. */
export async function listSubscriptionsOfUsers(db: Database, userIds: readonly string[]): Promise<SubscriptionRow[]> {
  if (userIds.length === 0) return [];
  return db.selectFrom('subscriptions').selectAll().where('user_id', 'in', userIds).execute();
}

/** Subscriptions whose paid period has not ended at `nowMs`. */
export async function listActiveSubscriptions(db: Database, nowMs: number): Promise<SubscriptionRow[]> {
  return db.selectFrom('subscriptions').selectAll().where('expires_at', '>', nowMs).execute();
}

/** Auto-renewing subscriptions whose period has ended by `nowMs`, soonest first. */
export async function listDueRenewals(
  db: Database,
  input: { nowMs: number; limit: number },
): Promise<SubscriptionRow[]> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('is_auto_renewing', '=', 1)
    .where('expires_at', '<=', input.nowMs)
    .orderBy('expires_at')
    .limit(input.limit)
    .execute();
}

export type SubscriptionPaymentOutcome =
  | { outcome: 'committed'; subscription: SubscriptionRow }
  | { outcome: 'already_committed' }
  | { outcome: 'insufficient_balance' }
  | { outcome: 'stale' };

class RollBack extends Error {
  readonly outcome: 'insufficient_balance' | 'stale';
  constructor(outcome: 'insufficient_balance' | 'stale') {
    super(outcome);
    this.outcome = outcome;
  }
}

/**
 * Pays for a subscription period and writes the subscription in one transaction: the ledger debit (once per
 * idempotency key), then — with the account's row locked by that debit, so concurrent payments of one account run
 * one after the other — the new subscription computed from the current one by `nextPeriod` (undefined: the current
 * one moved on, nothing is paid). A debit that would take the balance below zero rolls everything back.
 */
export async function commitSubscriptionPayment(
  db: Database,
  input: {
    ledger: LedgerTransaction;
    userId: string;
    nextPeriod: (current: SubscriptionRow | undefined) => SubscriptionRow | undefined;
  },
): Promise<SubscriptionPaymentOutcome> {
  try {
    return await db.transaction().execute(async (trx) => {
      const isPosted = await writeLedgerTransaction(trx, input.ledger);
      if (!isPosted) return { outcome: 'already_committed' } as const;
      const user = await trx
        .selectFrom('users')
        .select('balance_micros')
        .where('id', '=', input.userId)
        .executeTakeFirstOrThrow();
      if (user.balance_micros < 0) throw new RollBack('insufficient_balance');
      const current = await trx
        .selectFrom('subscriptions')
        .selectAll()
        .where('user_id', '=', input.userId)
        .executeTakeFirst();
      const next = input.nextPeriod(current);
      if (!next) throw new RollBack('stale');
      const { user_id: _userId, ...changes } = next;
      await trx
        .insertInto('subscriptions')
        .values(next)
        .onConflict((conflict) => conflict.column('user_id').doUpdateSet(changes))
        .execute();
      await trx
        .updateTable('cache_versions')
        .set({ version: sql<number>`version + 1` })
        .where('name', 'in', ['balances', 'account_terms'])
        .execute();
      return { outcome: 'committed', subscription: next } as const;
    });
  } catch (error) {
    if (error instanceof RollBack) return { outcome: error.outcome };
    throw error;
  }
}

/** Turns auto-renewal on or off; returns the updated subscription, or undefined when the account has none. */
export async function updateAutoRenewal(
  db: Database,
  input: { userId: string; isAutoRenewing: boolean; updatedAt: number },
): Promise<SubscriptionRow | undefined> {
  await db
    .updateTable('subscriptions')
    .set({ is_auto_renewing: input.isAutoRenewing ? 1 : 0, renewal_failure: null, updated_at: input.updatedAt })
    .where('user_id', '=', input.userId)
    .execute();
  return findSubscription(db, input.userId);
}

/** Records why a renewal could not be paid and stops renewing, unless the period moved on meanwhile. */
export async function recordRenewalFailure(
  db: Database,
  input: { userId: string; expiresAt: number; failure: string; updatedAt: number },
): Promise<void> {
  await db
    .updateTable('subscriptions')
    .set({ is_auto_renewing: 0, renewal_failure: input.failure, updated_at: input.updatedAt })
    .where('user_id', '=', input.userId)
    .where('expires_at', '=', input.expiresAt)
    .execute();
}
