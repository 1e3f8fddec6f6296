import type { ChatVault, ChatVaultAnswer, PutChatVaultRequest } from '../../../contract/chats.ts';
import { findChatVault, insertChatVault, updateChatVault } from '../db/chat-vaults.ts';
import type { Database } from '../db/database.ts';
import type { ChatVaultRow } from '../db/schema.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { ConflictError } from '../errors/conflict-error.ts';
import type { Clock } from '../lib/clock.ts';

export type ChatVaultDeps = { db: Database; clock: Clock };

/** The user's wrapped account key and how to derive the unwrapping key, or null before the first passphrase. */
export async function getChatVault(deps: { db: Database }, userId: string): Promise<ChatVaultAnswer> {
  const row = await findChatVault(deps.db, userId);
  return { vault: row ? toChatVault(row) : null };
}

/**
 * Stores the wrapped account key: creates it (`expected_version` 0) or replaces it after a passphrase change. A
 * stale version is a 409, so two tabs changing the passphrase at once cannot leave a key neither can unwrap.
 */
export async function saveChatVault(
  deps: ChatVaultDeps,
  input: { userId: string; request: PutChatVaultRequest },
): Promise<ChatVaultAnswer> {
  const { request, userId } = input;
  const nowMs = deps.clock.nowMs();
  const values = {
    user_id: userId,
    kdf: request.kdf,
    iterations: request.iterations,
    salt: request.salt,
    wrapped_account_key: request.wrapped_account_key,
    updated_at: nowMs,
  };
  if (request.expected_version === 0) {
    try {
      await insertChatVault(deps.db, { ...values, version: 1, created_at: nowMs });
    } catch (error) {
      if (isUniqueViolation(error)) throw versionConflict();
      throw error;
    }
  } else if (!(await updateChatVault(deps.db, { ...values, expectedVersion: request.expected_version }))) {
    throw versionConflict();
  }
  return getChatVault(deps, userId);
}

function versionConflict(): ConflictError {
  return new ConflictError('The chat passphrase was set or changed elsewhere; reload and try again.', {
    param: 'expected_version',
    code: 'version_conflict',
  });
}

function toChatVault(row: ChatVaultRow): ChatVault {
  return {
    kdf: row.kdf,
    iterations: row.iterations,
    salt: row.salt,
    wrapped_account_key: row.wrapped_account_key,
    version: row.version,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
