import type { Database } from './database.ts';
import type { ApiKeyRow } from './schema.ts';

export type BrowserChatKeyRow = ApiKeyRow & { sequence: number };

/** The session's browser-chat key with the highest sequence number (live or not); undefined when none. */
export async function findLatestBrowserChatKey(
  db: Database,
  sessionId: string,
): Promise<BrowserChatKeyRow | undefined> {
  return db
    .selectFrom('browser_chat_keys')
    .innerJoin('api_keys', 'api_keys.id', 'browser_chat_keys.api_key_id')
    .selectAll('api_keys')
    .select('browser_chat_keys.sequence')
    .where('browser_chat_keys.session_id', '=', sessionId)
    .orderBy('browser_chat_keys.sequence', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Ties an API key to a session. A second key with the same session and sequence is a unique violation. */
export async function insertBrowserChatKey(
  db: Database,
  input: { apiKeyId: string; sessionId: string; sequence: number; createdAt: number },
): Promise<void> {
  await db
    .insertInto('browser_chat_keys')
    .values({
      api_key_id: input.apiKeyId,
      session_id: input.sessionId,
      sequence: input.sequence,
      created_at: input.createdAt,
    })
    .execute();
}

/** Revokes every live browser-chat key of a session; returns how many. */
export async function revokeBrowserChatKeysOfSession(
  db: Database,
  input: { sessionId: string; revokedAt: number },
): Promise<number> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: input.revokedAt })
    .where('revoked_at', 'is', null)
    .where('id', 'in', (builder) =>
      builder.selectFrom('browser_chat_keys').select('api_key_id').where('session_id', '=', input.sessionId),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function findSessionExpiry(db: Database, sessionId: string): Promise<number | undefined> {
  const row = await db.selectFrom('sessions').select('expires_at').where('id', '=', sessionId).executeTakeFirst();
  return row?.expires_at;
}
