import { sql } from 'kysely';
import type { Database } from './database.ts';

export type LowBalanceCandidate = {
  id: string;
  email: string;
  locale: string;
  balance_micros: number;
  alert_low_balance_micros: number;
};

export async function updateLowBalanceThreshold(
  db: Database,
  input: { userId: string; thresholdMicros: number | null },
): Promise<void> {
  await db
    .updateTable('users')
    .set({ alert_low_balance_micros: input.thresholdMicros, low_balance_alerted_at: null })
    .where('id', '=', input.userId)
    .execute();
}

/** Active accounts below their threshold that have not been told since they last went below it. */
export async function listLowBalanceCandidates(db: Database, input: { limit: number }): Promise<LowBalanceCandidate[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email', 'locale', 'balance_micros', 'alert_low_balance_micros'])
    .where('status', '=', 'active')
    .where('alert_low_balance_micros', 'is not', null)
    .where('low_balance_alerted_at', 'is', null)
    .where(sql<boolean>`balance_micros < alert_low_balance_micros`)
    .limit(input.limit)
    .execute();
  return rows.map((row) => ({ ...row, alert_low_balance_micros: Number(row.alert_low_balance_micros) }));
}

/** Claims the right to mail one account about its low balance: true for the one node whose update wins. */
export async function claimLowBalanceAlert(db: Database, input: { userId: string; nowMs: number }): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ low_balance_alerted_at: input.nowMs })
    .where('id', '=', input.userId)
    .where('low_balance_alerted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Re-arms the alert of every account whose balance is back at or above its threshold. */
export async function rearmLowBalanceAlerts(db: Database): Promise<number> {
  const result = await db
    .updateTable('users')
    .set({ low_balance_alerted_at: null })
    .where('low_balance_alerted_at', 'is not', null)
    .where(sql<boolean>`balance_micros >= alert_low_balance_micros`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export type RenewalReminderCandidate = {
  user_id: string;
  email: string;
  locale: string;
  plan_name: string;
  price_micros: number;
  expires_at: number;
};

/** Auto-renewing subscriptions that renew before `beforeMs` and whose period has had no reminder yet. */
export async function listRenewalReminderCandidates(
  db: Database,
  input: { nowMs: number; beforeMs: number; limit: number },
): Promise<RenewalReminderCandidate[]> {
  return db
    .selectFrom('subscriptions')
    .innerJoin('users', 'users.id', 'subscriptions.user_id')
    .innerJoin('subscription_plans', 'subscription_plans.id', 'subscriptions.plan_id')
    .select([
      'subscriptions.user_id',
      'users.email',
      'users.locale',
      'subscription_plans.name as plan_name',
      'subscription_plans.price_micros',
      'subscriptions.expires_at',
    ])
    .where('subscriptions.is_auto_renewing', '=', 1)
    .where('users.status', '=', 'active')
    .where('subscriptions.expires_at', '>', input.nowMs)
    .where('subscriptions.expires_at', '<=', input.beforeMs)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('subscription_renewal_reminders as sent')
            .select('sent.user_id')
            .whereRef('sent.user_id', '=', 'subscriptions.user_id')
            .whereRef('sent.expires_at', '=', 'subscriptions.expires_at'),
        ),
      ),
    )
    .limit(input.limit)
    .execute();
}

/** Claims the reminder of one period: true for the node whose insert wins. */
export async function claimRenewalReminder(
  db: Database,
  input: { userId: string; expiresAt: number; nowMs: number },
): Promise<boolean> {
  const result = await db
    .insertInto('subscription_renewal_reminders')
    .values({ user_id: input.userId, expires_at: input.expiresAt, sent_at: input.nowMs })
    .onConflict((conflict) => conflict.columns(['user_id', 'expires_at']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** The operators' addresses, for operator alerts. */
export async function listOperatorEmails(db: Database): Promise<{ email: string; locale: string }[]> {
  return db
    .selectFrom('users')
    .select(['email', 'locale'])
    .where('role', '=', 'admin')
    .where('status', '=', 'active')
    .execute();
}
