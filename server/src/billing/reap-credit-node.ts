import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Database } from '../db/database.ts';
import { parseJournalLine } from '../db/settlement-journal.ts';
import { recordCharges } from '../db/usage-records.ts';
import { chunk } from '../lib/chunk.ts';
import { reapScript } from './redis-credit-scripts.ts';

const writeBatchSize = 500;

/**
 * Credit keys in Redis are namespaced by the installation (its database's master key fingerprint, hashed), so two
 * installations that share a Redis server (or the test suite's databases) never reap each other's nodes or write one's
 * charges into the other's database.
 */
export function creditKeyPrefix(installationFingerprint: string | undefined): string {
  if (installationFingerprint === undefined) return 'gw:';
  const namespace = createHash('sha256').update(`credit-namespace:${installationFingerprint}`).digest('hex');
  return `gw:${namespace.slice(0, 12)}:`;
}

/** The Redis keys a node registers its credit state under (`<prefix>node:<id>:…`). */
export function creditNodeKeys(keyPrefix: string, nodeId: string) {
  const base = `${keyPrefix}node:${nodeId}:`;
  return {
    registration: `${base}registration`,
    holds: `${base}holds`,
    pending: `${base}pending`,
    charges: `${base}charges`,
    lease: `${base}lease`,
    deliveries: `${base}deliveries`,
  };
}

/**
 * Settles what a node left and frees the rest: the charges it journaled but had not yet written, and for each call
 * it still held the checkpoint of what that stream had delivered, reach the database first (each idempotent by
 * request id, so a charge the node or its journal wrote too counts once); the balances they changed are reloaded;
 * only then do its holds and pending amounts stop counting, so no money is spendable twice. Returns how many holds it
 * released, or -1 when the node renewed its lease meanwhile (nothing is freed then; what was written stays written,
 * being the node's own charges).
 */
export async function reapCreditNode(
  deps: {
    db: Database;
    redis: Redis;
    keyPrefix: string;
    /** Reloads balances from the database into Redis (never creating an account). */
    reload: (userIds: readonly string[]) => Promise<void>;
  },
  nodeId: string,
  mode: 'expired' | 'own',
): Promise<number> {
  const { redis } = deps;
  const keys = creditNodeKeys(deps.keyPrefix, nodeId);
  // Each hold is `<user id> <amount>` under its hold id.
  const holds = await redis.hgetall(keys.holds);
  const openHolds = new Set(Object.keys(holds));
  const deliveries = await redis.hgetall(keys.deliveries);
  const texts = [
    ...(await redis.hvals(keys.charges)),
    ...Object.entries(deliveries)
      .filter(([holdId]) => openHolds.has(holdId))
      .map(([, text]) => text),
  ];
  const charges = texts.map(parseJournalLine).filter((charge) => charge !== undefined);
  for (const part of chunk(charges, writeBatchSize)) await recordCharges(deps.db, part);
  // The accounts it held for too: a node that fenced itself wrote its calls' final charges to the database while
  // Redis could not hear them, so their balances are re-read before the holds stop counting.
  const users = new Set([
    ...(await redis.hkeys(keys.pending)),
    ...charges.map((charge) => charge.usage.user_id),
    ...Object.values(holds).map((hold) => hold.split(' ')[0] ?? ''),
  ]);
  users.delete('');
  await deps.reload([...users]);
  const reapKeys = [
    `${deps.keyPrefix}credit-generation`,
    keys.registration,
    keys.holds,
    keys.pending,
    keys.charges,
    keys.lease,
    `${deps.keyPrefix}credit-nodes`,
    keys.deliveries,
  ];
  const prefix = `${deps.keyPrefix}credit:`;
  return Number(await redis.eval(reapScript, reapKeys.length, ...reapKeys, prefix, nodeId, mode));
}
