import type { DeletedApiKey } from '../../../contract/api-keys.ts';
import { revokeApiKey } from '../db/api-keys.ts';
import type { ApiKeyCache } from './api-key-cache.ts';
import { bumpCacheVersion } from '../db/cache-versions.ts';
import type { Database } from '../db/database.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import type { Clock } from '../lib/clock.ts';

/**
 * Revokes one of the account's keys. This node reloads its key cache at once; bumping the `api_keys` cache version
 * makes every other node reload its own on its next poll (every 500 ms), so the key stops working everywhere within
 * a second.
 */
export async function revokeAccountApiKey(
  deps: { db: Database; clock: Clock; apiKeyCache: Pick<ApiKeyCache, 'reload'> },
  input: { userId: string; keyId: string },
): Promise<DeletedApiKey> {
  const isRevoked = await revokeApiKey(deps.db, { ...input, revokedAt: deps.clock.nowMs() });
  if (!isRevoked) throw new NotFoundError(`No API key \`${input.keyId}\` on this account.`, { param: 'id' });
  await bumpCacheVersion(deps.db, 'api_keys');
  await deps.apiKeyCache.reload();
  return { id: input.keyId, deleted: true };
}
