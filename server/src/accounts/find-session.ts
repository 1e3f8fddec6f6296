import type { Database } from '../db/database.ts';
import { findLiveSessionByTokenHash } from '../db/sessions.ts';
import type { Clock } from '../lib/clock.ts';
import { hashSessionToken } from './session-token.ts';

/** Who a session cookie signs in. */
export type SignedInSession = {
  sessionId: string;
  userId: string;
  role: 'user' | 'admin';
  isUserBlocked: boolean;
  csrfToken: string;
};

/** The live session of a cookie token; undefined when it is unknown, expired or revoked. */
export async function findSession(
  deps: { db: Database; clock: Clock },
  token: string,
): Promise<SignedInSession | undefined> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
  const row = await findLiveSessionByTokenHash(deps.db, {
    tokenHash: hashSessionToken(token),
    nowMs: deps.clock.nowMs(),
  });
  if (!row) return undefined;
  return {
    sessionId: row.id,
    userId: row.user_id,
    role: row.user_role,
    isUserBlocked: row.user_status === 'blocked',
    csrfToken: row.csrf_token,
  };
}
