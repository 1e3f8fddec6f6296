import type { Database } from './database.ts';
import type { ApiKeyRow, UserRow } from './schema.ts';

export type NewApiKey = Omit<
  ApiKeyRow,
  'spent_micros' | 'last_used_at' | 'revoked_at' | 'daily_budget_micros' | 'monthly_budget_micros'
> &
  Partial<Pick<ApiKeyRow, 'daily_budget_micros' | 'monthly_budget_micros'>>;

/** An active key with what authentication needs of its owner. */
export type ApiKeyWithOwner = ApiKeyRow & { user_status: UserRow['status']; user_role: UserRow['role'] };

export async function insertApiKey(db: Database, key: NewApiKey): Promise<void> {
  await db.insertInto('api_keys').values(key).execute();
}

/** Every key that is not revoked, with its owner; the authentication cache loads these. */
export async function listActiveApiKeys(db: Database): Promise<ApiKeyWithOwner[]> {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .selectAll('api_keys')
    .select(['users.status as user_status', 'users.role as user_role'])
    .where('api_keys.revoked_at', 'is', null)
    .execute();
}

export async function listApiKeysForUser(db: Database, userId: string): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').execute();
}

/** Revokes a key of this user; returns whether a key was revoked. */
export async function revokeApiKey(
  db: Database,
  input: { userId: string; keyId: string; revokedAt: number },
): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: input.revokedAt })
    .where('id', '=', input.keyId)
    .where('user_id', '=', input.userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function findActiveApiKeyByHash(db: Database, keyHash: string): Promise<ApiKeyWithOwner | undefined> {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .selectAll('api_keys')
    .select(['users.status as user_status', 'users.role as user_role'])
    .where('api_keys.key_hash', '=', keyHash)
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function findApiKeyById(db: Database, id: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

/** How many keys of this user still work: neither revoked nor expired at `nowMs`. */
export async function countUsableApiKeys(db: Database, input: { userId: string; nowMs: number }): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', input.userId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', input.nowMs)]))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** What each of these keys was charged since `sinceMs` (keys without charges are absent): a day's or month's spend. */
export async function sumKeySpendSince(
  db: Database,
  input: { keyIds: readonly string[]; sinceMs: number },
): Promise<Map<string, number>> {
  const spent = new Map<string, number>();
  // In slices, so no statement carries more parameters than a driver allows.
  for (let start = 0; start < input.keyIds.length; start += 500) {
    const rows = await db
      .selectFrom('usage_records')
      .select(['api_key_id', db.fn.sum<number | string>('cost_micros').as('micros')])
      .where('api_key_id', 'in', input.keyIds.slice(start, start + 500))
      .where('created_at', '>=', input.sinceMs)
      .groupBy('api_key_id')
      .execute();
    for (const row of rows) if (row.api_key_id !== null) spent.set(row.api_key_id, Number(row.micros));
  }
  return spent;
}
