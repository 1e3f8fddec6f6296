import type { Redis } from 'ioredis';
import type { Database } from '../db/database.ts';
import type { BalanceSnapshot } from '../db/ledger.ts';
import { listBalanceSnapshots } from '../db/users.ts';
import { chunk } from '../lib/chunk.ts';
import { createSingleFlight } from '../lib/single-flight.ts';
import type { CommittedCharges, CreditHolds } from './credit-holds.ts';

/**
 * One hash per account in Redis, shared by every node: `b` balance and `v` its version (as the database last
 * reported them), `h` held by calls in flight, `p` charged but not yet in the database. Each node also keeps a
 * registry of its own holds (`<hold id>` → `<user> <amount>`) and pending charges (`<user>` → amount), so that when it
 * restarts it can take back what its previous life left. Every script is atomic, so two nodes can never both take
 * the same credit. Amounts leave `h` and `p` only while the account hash exists: an account Redis lost (eviction,
 * restart, expiry) is reloaded from the database instead of going negative. Keys outside KEYS are touched only by
 * the restart script: this needs a single Redis server (or a primary), not Redis Cluster.
 */
const reserveScript = `
local f = redis.call('HMGET', KEYS[1], 'b', 'h', 'p')
if not f[1] then return {0, 0} end
local available = tonumber(f[1]) - tonumber(f[2] or '0') - tonumber(f[3] or '0')
if available < tonumber(ARGV[2]) then return {2, available} end
local held = math.min(tonumber(ARGV[1]), available)
redis.call('HINCRBY', KEYS[1], 'h', held)
redis.call('HSET', KEYS[2], ARGV[3], ARGV[4] .. ' ' .. held)
redis.call('EXPIRE', KEYS[1], ARGV[5])
return {1, held}
`;

const loadScript = `
local version = redis.call('HGET', KEYS[1], 'v')
if (not version) and ARGV[4] == 'refresh' then
  redis.call('SREM', KEYS[2], ARGV[5])
  return 0
end
if (not version) or tonumber(version) < tonumber(ARGV[2]) then
  redis.call('HSET', KEYS[1], 'b', ARGV[1], 'v', ARGV[2])
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('SADD', KEYS[2], ARGV[5])
return 1
`;

const takeHold = `
local hold = redis.call('HGET', KEYS[2], ARGV[1])
if not hold then return 0 end
redis.call('HDEL', KEYS[2], ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], 'h', -tonumber(string.match(hold, ' (%-?%d+)$')))
end
`;

const captureScript = `${takeHold}
local captured = tonumber(ARGV[2])
if captured > 0 then
  redis.call('HINCRBY', KEYS[1], 'p', captured)
  redis.call('HINCRBY', KEYS[3], ARGV[3], captured)
  redis.call('EXPIRE', KEYS[1], ARGV[4])
end
return 1
`;

const releaseScript = `${takeHold}
return 1
`;

const applyScript = `
local captured = tonumber(ARGV[1])
local exists = redis.call('EXISTS', KEYS[1]) == 1
if captured > 0 then
  if exists then redis.call('HINCRBY', KEYS[1], 'p', -captured) end
  if redis.call('HINCRBY', KEYS[2], ARGV[4], -captured) <= 0 then redis.call('HDEL', KEYS[2], ARGV[4]) end
end
local version = redis.call('HGET', KEYS[1], 'v')
if ARGV[3] ~= '' and version and tonumber(version) < tonumber(ARGV[3]) then
  redis.call('HSET', KEYS[1], 'b', ARGV[2], 'v', ARGV[3])
end
return 1
`;

const forgetNodeScript = `
local holds = redis.call('HGETALL', KEYS[1])
for i = 1, #holds, 2 do
  local user, held = string.match(holds[i + 1], '^(.*) (%-?%d+)$')
  if redis.call('EXISTS', ARGV[1] .. user) == 1 then
    redis.call('HINCRBY', ARGV[1] .. user, 'h', -tonumber(held))
  end
end
local pending = redis.call('HGETALL', KEYS[2])
for i = 1, #pending, 2 do
  if redis.call('EXISTS', ARGV[1] .. pending[i]) == 1 then
    redis.call('HINCRBY', ARGV[1] .. pending[i], 'p', -tonumber(pending[i + 1]))
  end
end
redis.call('DEL', KEYS[1], KEYS[2])
return #holds / 2
`;

/** Idle accounts leave Redis after a week; the next call reloads the balance from the database. */
const accountTtlSeconds = 7 * 24 * 3600;
const refreshBatchSize = 500;

export type RedisCreditHolds = CreditHolds & {
  /**
   * At start, after the journal of the previous process with this node id is written to the database: reloads the
   * balances of the given accounts and of those the previous life left pending charges for (their charges may be in
   * the database while Redis still shows the older balance), then takes back that life's holds and pending charges.
   * Returns how many holds were released.
   */
  forgetPreviousLife: (accountsToReload: readonly string[]) => Promise<number>;
};

/** Credit holds shared by every gateway node through Redis (`REDIS_URL`). */
export function createRedisCreditHolds(deps: {
  db: Database;
  redis: Redis;
  keyPrefix: string;
  nodeId: string;
}): RedisCreditHolds {
  const { redis } = deps;
  const accountPrefix = `${deps.keyPrefix}credit:`;
  const accountKey = (userId: string) => `${accountPrefix}${userId}`;
  const nodeHolds = `${deps.keyPrefix}node:${deps.nodeId}:holds`;
  const nodePending = `${deps.keyPrefix}node:${deps.nodeId}:pending`;
  const accounts = `${deps.keyPrefix}credit-accounts`;
  let holdSequence = 0;

  const load = async (snapshots: readonly BalanceSnapshot[], mode: 'reserve' | 'refresh') => {
    if (snapshots.length === 0) return;
    const pipeline = redis.pipeline();
    for (const snapshot of snapshots) {
      pipeline.eval(
        loadScript,
        2,
        accountKey(snapshot.userId),
        accounts,
        String(snapshot.balanceMicros),
        String(snapshot.version),
        String(accountTtlSeconds),
        mode,
        snapshot.userId,
      );
    }
    throwFirstError(await pipeline.exec());
  };
  const reload = async (userIds: readonly string[], mode: 'reserve' | 'refresh') => {
    for (const part of chunk(userIds, refreshBatchSize)) await load(await listBalanceSnapshots(deps.db, part), mode);
  };
  /**
   * One database read per account however many calls find it missing from Redis at once (a burst of a thousand
   * streams from a fresh account would otherwise queue a thousand reads on the pool and time some out). Only `reserve`
   * loads are shared: they write only an account Redis lacks, so a read that began a moment earlier serves as well.
   */
  const loadOnce = createSingleFlight<void>();
  const loadMissing = (userId: string): Promise<void> => loadOnce(userId, () => reload([userId], 'reserve'));
  const reserveOnce = async (input: { userId: string; holdId: string; desiredMicros: number; minimumMicros: number }) =>
    (await redis.eval(
      reserveScript,
      2,
      accountKey(input.userId),
      nodeHolds,
      String(input.desiredMicros),
      String(input.minimumMicros),
      input.holdId,
      input.userId,
      String(accountTtlSeconds),
    )) as [number, number];
  const free = async (holdId: string, userId: string) =>
    Number(await redis.eval(releaseScript, 2, accountKey(userId), nodeHolds, holdId)) === 1;
  const available = async (userId: string): Promise<number> => {
    const [balance, held, pending] = await redis.hmget(accountKey(userId), 'b', 'h', 'p');
    return Number(balance ?? 0) - Number(held ?? 0) - Number(pending ?? 0);
  };

  return {
    reserve: async (input) => {
      holdSequence += 1;
      const holdId = `${input.holdId}#${holdSequence}`;
      let [outcome, amount] = await reserveOnce({ ...input, holdId });
      if (outcome === 0) {
        await loadMissing(input.userId);
        [outcome, amount] = await reserveOnce({ ...input, holdId });
      }
      return outcome === 1 ? { holdId, userId: input.userId, heldMicros: amount } : undefined;
    },
    capture: async (hold, capturedMicros) =>
      Number(
        await redis.eval(
          captureScript,
          3,
          accountKey(hold.userId),
          nodeHolds,
          nodePending,
          hold.holdId,
          String(capturedMicros),
          hold.userId,
          String(accountTtlSeconds),
        ),
      ) === 1,
    applyCommitted: async (charges) => {
      const pipeline = redis.pipeline();
      for (const charge of sumPerAccount(charges)) {
        pipeline.eval(
          applyScript,
          2,
          accountKey(charge.userId),
          nodePending,
          String(charge.capturedMicros),
          String(charge.balance?.balanceMicros ?? ''),
          String(charge.balance?.version ?? ''),
          charge.userId,
        );
      }
      throwFirstError(await pipeline.exec());
    },
    release: async (hold) => {
      await free(hold.holdId, hold.userId);
    },
    settleCommitted: async (hold) => {
      await reload([hold.userId], 'refresh');
      await free(hold.holdId, hold.userId);
    },
    availableMicros: async (userId) => {
      if (!(await redis.hexists(accountKey(userId), 'b'))) await loadMissing(userId);
      return available(userId);
    },
    /** Every node re-reads every account Redis holds: simple, and cheap next to a top-up's rarity. */
    refresh: async () => reload(await redis.smembers(accounts), 'refresh'),
    forgetPreviousLife: async (accountsToReload) => {
      const leftPending = await redis.hkeys(nodePending);
      await reload([...new Set([...accountsToReload, ...leftPending])], 'refresh');
      return Number(await redis.eval(forgetNodeScript, 2, nodeHolds, nodePending, accountPrefix));
    },
  };
}

/** One entry per account: the sum of its captured amounts and the newest balance among them. */
function sumPerAccount(charges: readonly CommittedCharges[]): CommittedCharges[] {
  const byUser = new Map<string, CommittedCharges>();
  for (const charge of charges) {
    const known = byUser.get(charge.userId);
    if (!known) {
      byUser.set(charge.userId, { ...charge });
      continue;
    }
    known.capturedMicros += charge.capturedMicros;
    if (charge.balance && (!known.balance || charge.balance.version > known.balance.version)) {
      known.balance = charge.balance;
    }
  }
  return [...byUser.values()];
}

function throwFirstError(results: [Error | null, unknown][] | null): void {
  const failed = results?.find(([error]) => error !== null);
  if (failed?.[0]) throw failed[0];
}
