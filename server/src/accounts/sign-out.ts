import type { Database } from '../db/database.ts';
import { revokeSession } from '../db/sessions.ts';
import type { Clock } from '../lib/clock.ts';

/** Ends a session on the server; the cookie alone no longer signs anyone in. */
export async function signOut(deps: { db: Database; clock: Clock }, sessionId: string): Promise<void> {
  await revokeSession(deps.db, { sessionId, revokedAt: deps.clock.nowMs() });
}
