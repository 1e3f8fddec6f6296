import type { Database } from './database.ts';
import type { SessionRow, UserRow } from './schema.ts';

/** A live session with what the account API needs of its user. */
export type SessionWithUser = SessionRow & { user_status: UserRow['status']; user_role: UserRow['role'] };

export async function insertSession(db: Database, session: Omit<SessionRow, 'revoked_at'>): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ ...session, revoked_at: null })
    .execute();
}

/** The session for a token hash, unless it is revoked or expired at `nowMs`. */
export async function findLiveSessionByTokenHash(
  db: Database,
  input: { tokenHash: string; nowMs: number },
): Promise<SessionWithUser | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('sessions')
    .select(['users.status as user_status', 'users.role as user_role'])
    .where('sessions.token_hash', '=', input.tokenHash)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', input.nowMs)
    .executeTakeFirst();
}

export async function revokeSession(db: Database, input: { sessionId: string; revokedAt: number }): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: input.revokedAt })
    .where('id', '=', input.sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every live session of a user except one (the one that changed the password); returns how many. */
export async function revokeOtherSessions(
  db: Database,
  input: { userId: string; keptSessionId: string; revokedAt: number },
): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: input.revokedAt })
    .where('user_id', '=', input.userId)
    .where('id', '!=', input.keptSessionId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** How many sessions the user has ever had, counted up to `atMost` (rows are kept after they end). */
export async function countSessionsOfUser(db: Database, input: { userId: string; atMost: number }): Promise<number> {
  const rows = await db
    .selectFrom('sessions')
    .select('id')
    .where('user_id', '=', input.userId)
    .limit(input.atMost)
    .execute();
  return rows.length;
}

/** Ends every live session of an account (a password reset: whoever held a session loses it). */
export async function revokeAllSessions(db: Database, input: { userId: string; revokedAt: number }): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: input.revokedAt })
    .where('user_id', '=', input.userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
