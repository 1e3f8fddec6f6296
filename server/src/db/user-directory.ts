import { sql } from 'kysely';
import type { Database } from './database.ts';
import type { UserRow } from './schema.ts';

/** A user as the operator's list shows it: never the password hash. */
export type DirectoryUser = Pick<UserRow, 'id' | 'email' | 'role' | 'status' | 'balance_micros' | 'created_at'> & {
  active_key_count: number;
};

/**
 * Users whose e-mail contains `emailContains` (case-insensitive; every user without it), newest first, `limit` at a
 * time from `offset`.
 */
export async function searchUsers(
  db: Database,
  input: { emailContains: string | undefined; limit: number; offset: number },
): Promise<DirectoryUser[]> {
  let query = selectDirectoryUsers(db);
  if (input.emailContains !== undefined) {
    const pattern = `%${input.emailContains.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    query = query.where(sql<boolean>`lower(email) like ${pattern} escape '\\'`);
  }
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(input.limit)
    .offset(input.offset)
    .execute();
  return rows.map(toDirectoryUser);
}

export async function findDirectoryUser(db: Database, userId: string): Promise<DirectoryUser | undefined> {
  const row = await selectDirectoryUsers(db).where('id', '=', userId).executeTakeFirst();
  return row && toDirectoryUser(row);
}

function selectDirectoryUsers(db: Database) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'role', 'status', 'balance_micros', 'created_at'])
    .select((select) =>
      select
        .selectFrom('api_keys')
        .select(sql<number>`count(*)`.as('count'))
        .whereRef('api_keys.user_id', '=', 'users.id')
        .where('api_keys.revoked_at', 'is', null)
        .as('active_key_count'),
    );
}

function toDirectoryUser<Row extends { active_key_count: number | null }>(row: Row) {
  return { ...row, active_key_count: Number(row.active_key_count ?? 0) };
}
