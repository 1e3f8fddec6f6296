import { createSerialReload } from '../lib/serial-reload.ts';
import { hashApiKey } from './api-key-secret.ts';
import { findActiveApiKeyByHash, listActiveApiKeys, sumKeySpendSince, type ApiKeyWithOwner } from '../db/api-keys.ts';
import type { Database } from '../db/database.ts';
import { systemClock, type Clock } from '../lib/clock.ts';
import { createSingleFlight } from '../lib/single-flight.ts';
import { budgetPeriodOf, type BudgetedKey, type PeriodSpend } from '../limits/spend-budgets.ts';

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
} & BudgetedKey;

export type ApiKeyCache = {
  /** The key for a hash: from memory, or from the database on a miss (a key created on another node). */
  find: (keyHash: string) => Promise<CachedApiKey | undefined>;
  /**
   * The key for a presented secret: `find` of its hash, the hash remembered for a while so SHA-256 does not run on
   * every call. Only the hash is remembered, never the key's record, so a revocation (`reload`) takes effect at once.
   */
  findByKey: (key: string) => Promise<CachedApiKey | undefined>;
  reload: () => Promise<void>;
};

/** How long a hash the database did not know is answered from memory (a key made elsewhere shows at the next reload). */
const missMemoryMs = 1_000;
const maxRememberedMisses = 10_000;
/** How long a presented key's hash is remembered: bounds how long a secret that stopped being used stays in memory. */
const hashMemoryMs = 60_000;
const maxRememberedHashes = 10_000;

/**
 * Every active key, loaded at start and again whenever keys change (`reload`, driven by the cache versions). A miss
 * asks the database once, for a key created on another node since the last reload; a hash it did not know is
 * remembered for a second (or until the next reload), and lookups of one hash at once share one query, so a flood of
 * made-up keys costs the database at most one query per distinct key per second.
 */
export async function loadApiKeyCache(db: Database, clock: Pick<Clock, 'nowMs'> = systemClock): Promise<ApiKeyCache> {
  let byHash = new Map<string, CachedApiKey>();
  const misses = new Map<string, number>();
  const lookUpOnce = createSingleFlight<CachedApiKey | undefined>();
  const reload = createSerialReload(async () => {
    const rows = await listActiveApiKeys(db);
    const spend = await loadPeriodSpend(db, rows, clock.nowMs());
    byHash = new Map(rows.map((row) => [row.key_hash, toCachedApiKey(row, spend(row.id))]));
    misses.clear();
  });
  const lookUp = async (keyHash: string): Promise<CachedApiKey | undefined> => {
    const row = await findActiveApiKeyByHash(db, keyHash);
    if (!row) {
      if (misses.size >= maxRememberedMisses) misses.clear();
      misses.set(keyHash, clock.nowMs() + missMemoryMs);
      return undefined;
    }
    const spend = await loadPeriodSpend(db, [row], clock.nowMs());
    const key = toCachedApiKey(row, spend(row.id));
    byHash.set(keyHash, key);
    return key;
  };
  const find = async (keyHash: string): Promise<CachedApiKey | undefined> => {
    const cached = byHash.get(keyHash);
    if (cached) return cached;
    if ((misses.get(keyHash) ?? 0) > clock.nowMs()) return undefined;
    return lookUpOnce(keyHash, () => lookUp(keyHash));
  };
  const hashes = createKeyHashMemory(clock);
  await reload();
  return {
    reload,
    find,
    findByKey: async (key) => {
      const remembered = hashes.find(key);
      if (remembered !== undefined) return find(remembered);
      const keyHash = hashApiKey(key);
      const found = await find(keyHash);
      // Only keys that exist are remembered, so a flood of made-up keys cannot fill the memory or evict real ones.
      if (found) hashes.remember(key, keyHash);
      return found;
    },
  };
}

/** Presented key → its SHA-256, each for `hashMemoryMs`; cleared whole when full (a rare, cheap reset). */
function createKeyHashMemory(clock: Pick<Clock, 'nowMs'>) {
  const byKey = new Map<string, { keyHash: string; untilMs: number }>();
  return {
    find: (key: string): string | undefined => {
      const entry = byKey.get(key);
      if (entry === undefined) return undefined;
      if (entry.untilMs > clock.nowMs()) return entry.keyHash;
      byKey.delete(key);
      return undefined;
    },
    remember: (key: string, keyHash: string): void => {
      if (byKey.size >= maxRememberedHashes) byKey.clear();
      byKey.set(key, { keyHash, untilMs: clock.nowMs() + hashMemoryMs });
    },
  };
}

/**
 * What the keys that have a day or month budget spent in the current UTC day and month, summed from their usage
 * records; keys without budgets are not asked about.
 */
async function loadPeriodSpend(
  db: Database,
  rows: readonly ApiKeyWithOwner[],
  nowMs: number,
): Promise<(keyId: string) => PeriodSpend> {
  const keyIds = rows
    .filter((row) => row.daily_budget_micros !== null || row.monthly_budget_micros !== null)
    .map((row) => row.id);
  const day = budgetPeriodOf('day', nowMs);
  const month = budgetPeriodOf('month', nowMs);
  const daySpend = await sumKeySpendSince(db, { keyIds, sinceMs: day.startsAtMs });
  const monthSpend = await sumKeySpendSince(db, { keyIds, sinceMs: month.startsAtMs });
  return (keyId) => ({
    day: { periodId: day.periodId, micros: daySpend.get(keyId) ?? 0 },
    month: { periodId: month.periodId, micros: monthSpend.get(keyId) ?? 0 },
  });
}

function toCachedApiKey(row: ApiKeyWithOwner, periodSpend: PeriodSpend): CachedApiKey {
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
    dailyBudgetMicros: row.daily_budget_micros,
    monthlyBudgetMicros: row.monthly_budget_micros,
    periodSpend,
  };
}
