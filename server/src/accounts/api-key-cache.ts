import { findActiveApiKeyByHash, listActiveApiKeys, type ApiKeyWithOwner } from '../db/api-keys.ts';
import type { Database } from '../db/database.ts';

/** What authentication needs of a key, held in memory. */
export type CachedApiKey = {
  id: string;
  userId: string;
  name: string;
  userRole: 'user' | 'admin';
  isOwnerBlocked: boolean;
  expiresAtMs: number | null;
  spendCapMicros: number | null;
  /** Running spend; the settlement adds to it in memory as it commits to the database. */
  spentMicros: number;
  allowedModels: ReadonlySet<string> | null;
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
};

export type ApiKeyCache = {
  /** The key for a hash: from memory, or from the database on a miss (a key created on another node). */
  find: (keyHash: string) => Promise<CachedApiKey | undefined>;
  reload: () => Promise<void>;
};

export async function loadApiKeyCache(db: Database): Promise<ApiKeyCache> {
  let byHash = new Map<string, CachedApiKey>();
  const reload = async () => {
    const rows = await listActiveApiKeys(db);
    byHash = new Map(rows.map((row) => [row.key_hash, toCachedApiKey(row)]));
  };
  await reload();
  return {
    reload,
    find: async (keyHash) => {
      const cached = byHash.get(keyHash);
      if (cached) return cached;
      const row = await findActiveApiKeyByHash(db, keyHash);
      if (!row) return undefined;
      const key = toCachedApiKey(row);
      byHash.set(keyHash, key);
      return key;
    },
  };
}

function toCachedApiKey(row: ApiKeyWithOwner): CachedApiKey {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    userRole: row.user_role,
    isOwnerBlocked: row.user_status === 'blocked',
    expiresAtMs: row.expires_at,
    spendCapMicros: row.spend_cap_micros,
    spentMicros: row.spent_micros,
    allowedModels: row.allowed_models === null ? null : new Set(row.allowed_models.split('\n')),
    requestsPerMinute: row.requests_per_minute,
    tokensPerMinute: row.tokens_per_minute,
  };
}
