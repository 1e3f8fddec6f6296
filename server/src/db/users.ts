import type { Database } from './database.ts';
import type { BalanceSnapshot } from './ledger.ts';
import type { UserRow } from './schema.ts';

export type NewUser = Pick<UserRow, 'id' | 'email' | 'password_hash' | 'role' | 'created_at'> &
  Partial<Pick<UserRow, 'email_verified_at' | 'locale' | 'signup_address_hash' | 'signup_network_hash'>>;

export async function insertUser(db: Database, user: NewUser): Promise<void> {
  await db
    .insertInto('users')
    .values({ ...user, status: 'active', balance_micros: 0 })
    .execute();
}

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function findUserById(db: Database, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listUsers(db: Database, options: { limit: number }): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().orderBy('created_at', 'desc').limit(options.limit).execute();
}

/** Current balances of the given users with their versions, from the cached column the ledger keeps in step. */
export async function listBalanceSnapshots(db: Database, userIds: readonly string[]): Promise<BalanceSnapshot[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .select(['id', 'balance_micros', 'balance_version'])
    .where('id', 'in', userIds)
    .execute();
  return rows.map((row) => ({ userId: row.id, balanceMicros: row.balance_micros, version: row.balance_version }));
}

export async function updatePasswordHash(db: Database, input: { userId: string; passwordHash: string }): Promise<void> {
  await db.updateTable('users').set({ password_hash: input.passwordHash }).where('id', '=', input.userId).execute();
}

export async function updateUserStatus(
  db: Database,
  input: { userId: string; status: UserRow['status'] },
): Promise<void> {
  await db.updateTable('users').set({ status: input.status }).where('id', '=', input.userId).execute();
}

/** Marks the address verified, once: true for the call that did it, false when it already was. */
export async function markEmailVerified(db: Database, input: { userId: string; verifiedAt: number }): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ email_verified_at: input.verifiedAt })
    .where('id', '=', input.userId)
    .where('email_verified_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function updateUserLocale(db: Database, input: { userId: string; locale: 'en' | 'ru' }): Promise<void> {
  await db.updateTable('users').set({ locale: input.locale }).where('id', '=', input.userId).execute();
}

/** Accounts opened since a time from one client address or one network (by hash): what the sign-up throttles count. */
export async function countSignUpsSince(
  db: Database,
  input: { column: 'signup_address_hash' | 'signup_network_hash'; hash: string; sinceMs: number },
): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where(input.column, '=', input.hash)
    .where('created_at', '>=', input.sinceMs)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
