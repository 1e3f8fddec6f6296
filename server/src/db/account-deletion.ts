import type { Transaction } from 'kysely';
import type { Database } from './database.ts';
import type { DatabaseSchema } from './schema.ts';

/** Top-ups of an account that may still be paid: pending at the provider, or created with a quote still valid. */
export async function countTopUpsInFlight(db: Database, input: { userId: string; nowMs: number }): Promise<number> {
  const row = await db
    .selectFrom('top_up_orders')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', input.userId)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'pending'),
        eb.and([eb('status', '=', 'created'), eb('quote_expires_at', '>', input.nowMs)]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Removes what identifies a deleted account: its address becomes `deleted+<id>@deleted.invalid`, the password one
 * that matches nothing, the account blocked; its keys and sessions end and its links and outbox mail go.
 */
export async function eraseAccountIdentity(
  trx: Transaction<DatabaseSchema>,
  input: { userId: string; email: string; nowMs: number },
): Promise<void> {
  await trx
    .updateTable('users')
    .set({
      email: `deleted+${input.userId}@deleted.invalid`,
      password_hash: '!deleted',
      status: 'blocked',
      deleted_at: input.nowMs,
      alert_low_balance_micros: null,
      signup_address_hash: null,
      signup_network_hash: null,
    })
    .where('id', '=', input.userId)
    .execute();
  await trx
    .updateTable('api_keys')
    .set({ revoked_at: input.nowMs })
    .where('user_id', '=', input.userId)
    .where('revoked_at', 'is', null)
    .execute();
  await trx
    .updateTable('sessions')
    .set({ revoked_at: input.nowMs })
    .where('user_id', '=', input.userId)
    .where('revoked_at', 'is', null)
    .execute();
  await trx.deleteFrom('account_tokens').where('user_id', '=', input.userId).execute();
  await trx.deleteFrom('mail_outbox').where('to_address', '=', input.email).execute();
}

/** Deletes usage records older than a time (the operator's retention); returns how many went. */
export async function deleteUsageRecordsBefore(db: Database, input: { beforeMs: number }): Promise<number> {
  const result = await db.deleteFrom('usage_records').where('created_at', '<', input.beforeMs).executeTakeFirst();
  return Number(result.numDeletedRows);
}
