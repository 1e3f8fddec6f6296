import type { Database } from '../db/database.ts';
import { insertSession } from '../db/sessions.ts';
import type { Clock } from '../lib/clock.ts';
import type { IdGenerator } from '../lib/ids.ts';
import { generateCsrfToken, generateSessionToken, sessionLifetimeMs } from './session-token.ts';

export type StartSessionDeps = { db: Database; clock: Clock; ids: IdGenerator };

/** A new session: the token goes into the cookie once; the server keeps its hash and the CSRF token. */
export type StartedSession = { sessionId: string; token: string; csrfToken: string; expiresAtMs: number };

export async function startSession(deps: StartSessionDeps, userId: string): Promise<StartedSession> {
  const { token, hash } = generateSessionToken(deps.ids);
  const nowMs = deps.clock.nowMs();
  const session = {
    id: deps.ids.newId('ses_'),
    user_id: userId,
    token_hash: hash,
    csrf_token: generateCsrfToken(deps.ids),
    created_at: nowMs,
    expires_at: nowMs + sessionLifetimeMs,
  };
  await insertSession(deps.db, session);
  return { sessionId: session.id, token, csrfToken: session.csrf_token, expiresAtMs: session.expires_at };
}
