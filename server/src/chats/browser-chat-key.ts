import { createHmac } from 'node:crypto';
import type { BrowserChatKey } from '../../../contract/chats.ts';
import { apiKeyPrefix, hashApiKey } from '../accounts/api-key-secret.ts';
import { insertApiKey } from '../db/api-keys.ts';
import {
  findLatestBrowserChatKey,
  findSessionExpiry,
  insertBrowserChatKey,
  revokeBrowserChatKeysOfSession,
} from '../db/browser-chat-keys.ts';
import { bumpCacheVersion } from '../db/cache-versions.ts';
import type { Database } from '../db/database.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { AuthenticationError } from '../errors/authentication-error.ts';
import { InternalError } from '../errors/internal-error.ts';
import type { Clock } from '../lib/clock.ts';
import type { IdGenerator } from '../lib/ids.ts';

export type BrowserChatKeyDeps = { db: Database; clock: Clock; ids: IdGenerator };

/** The name the key carries in the dashboard and in usage records. */
export const browserChatKeyName = 'browser chat';
/** A browser-chat key lives at most this long (and never past its session). */
export const browserChatKeyLifetimeMs = 24 * 60 * 60 * 1000;
/** A key with less than this left is replaced, so a conversation does not lose its key halfway. */
const renewBeforeExpiryMs = 60 * 60 * 1000;

/**
 * The session's API key for the chat page, which calls the public `/v1` API like any client and is billed alike.
 *
 * The key is derived, not stored: HMAC-SHA-256 of the session's cookie token over the key's sequence number. The
 * database keeps only the key's hash (like every key) and the cookie token's hash, so neither a database copy nor
 * the server at rest can produce the key, yet the same session gets the same key back on every page load without
 * the browser storing it. A key that expires within the hour, has expired or was revoked is replaced by the next
 * sequence number. Sign-out revokes them all (`revokeBrowserChatKeys`).
 */
export async function getBrowserChatKey(
  deps: BrowserChatKeyDeps,
  input: { userId: string; sessionId: string; sessionToken: string },
): Promise<BrowserChatKey> {
  const first = await findOrIssueKey(deps, input);
  // Undefined: two tabs asked at once and the other created this sequence's key, which is the same derived key.
  const answer = first ?? (await findOrIssueKey(deps, input));
  if (!answer) throw new InternalError('The browser chat key could not be issued; try again.');
  return answer;
}

async function findOrIssueKey(
  deps: BrowserChatKeyDeps,
  input: { userId: string; sessionId: string; sessionToken: string },
): Promise<BrowserChatKey | undefined> {
  const nowMs = deps.clock.nowMs();
  const latest = await findLatestBrowserChatKey(deps.db, input.sessionId);
  const isUsable =
    latest !== undefined &&
    latest.revoked_at === null &&
    latest.expires_at !== null &&
    latest.expires_at - nowMs > renewBeforeExpiryMs;
  if (latest && isUsable) {
    const key = deriveKey(input.sessionToken, latest.sequence);
    if (hashApiKey(key) === latest.key_hash) return toAnswer(key, latest.id, latest.expires_at ?? nowMs);
  }
  const sequence = (latest?.sequence ?? 0) + 1;
  const sessionExpiresAt = await findSessionExpiry(deps.db, input.sessionId);
  if (sessionExpiresAt === undefined) {
    throw new AuthenticationError('Your session has ended. Sign in again.', { code: 'not_signed_in' });
  }
  const expiresAt = Math.min(nowMs + browserChatKeyLifetimeMs, sessionExpiresAt);
  const key = deriveKey(input.sessionToken, sequence);
  const apiKeyId = deps.ids.newId('key_');
  try {
    await deps.db.transaction().execute(async (transaction) => {
      await insertApiKey(transaction, {
        id: apiKeyId,
        user_id: input.userId,
        name: browserChatKeyName,
        key_hash: hashApiKey(key),
        prefix: key.slice(0, 7),
        last_four: key.slice(-4),
        created_at: nowMs,
        expires_at: expiresAt,
        spend_cap_micros: null,
        allowed_models: null,
        requests_per_minute: null,
        tokens_per_minute: null,
      });
      await insertBrowserChatKey(transaction, { apiKeyId, sessionId: input.sessionId, sequence, createdAt: nowMs });
    });
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
  await bumpCacheVersion(deps.db, 'api_keys');
  return toAnswer(key, apiKeyId, expiresAt);
}

/** Revokes every browser-chat key of a session (at sign-out); the keys stop working on every node within a second. */
export async function revokeBrowserChatKeys(deps: { db: Database; clock: Clock }, sessionId: string): Promise<number> {
  const revoked = await revokeBrowserChatKeysOfSession(deps.db, { sessionId, revokedAt: deps.clock.nowMs() });
  if (revoked > 0) await bumpCacheVersion(deps.db, 'api_keys');
  return revoked;
}

function deriveKey(sessionToken: string, sequence: number): string {
  const secret = createHmac('sha256', sessionToken).update(`browser-chat-key:${sequence}`).digest('base64url');
  return `${apiKeyPrefix}${secret}`;
}

function toAnswer(key: string, keyId: string, expiresAtMs: number): BrowserChatKey {
  return { key, key_id: keyId, expires_at: new Date(expiresAtMs).toISOString() };
}
