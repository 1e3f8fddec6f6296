import type { Redis } from 'ioredis';
import type { Database } from '../db/database.ts';
import type { BalanceSnapshot } from '../db/ledger.ts';
import { listBalanceSnapshots } from '../db/users.ts';
import type { CreditHolds } from './credit-holds.ts';

/**
 * One hash per account in Redis, shared by every node: `b` balance and `v` its version (as the database last
 * reported them), `h` held by calls in flight, `p` charged but not yet in the database. Each node also keeps a
 * registry of its own holds and pending charges, so that when it restarts it can take back what its previous life
 * left behind. Every script is atomic, so two nodes can never both take the same credit. Keys outside KEYS are
 * touched only by the restart script: this needs a single Redis server (or a primary), not Redis Cluster.
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
local held = 0
if hold then
  held = tonumber(string.match(hold, ' (%-?%d+)$'))
  redis.call('HDEL', KEYS[2], ARGV[1])
  redis.call('HINCRBY', KEYS[1], 'h', -held)
end
`;

const captureScript = `${takeHold}
local captured = tonumber(ARGV[2])
if captured > 0 then
  redis.call('HINCRBY', KEYS[1], 'p', captured)
  redis.call('HINCRBY', KEYS[3], ARGV[3], captured)
end
return held
`;

const releaseScript = `${takeHold}
return held
`;

const applyScript = `
local captured = tonumber(ARGV[1])
if captured > 0 then
  redis.call('HINCRBY', KEYS[1], 'p', -captured)
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
  redis.call('HINCRBY', ARGV[1] .. user, 'h', -tonumber(held))
end
local pending = redis.call('HGETALL', KEYS[2])
for i = 1, #pending, 2 do
  redis.call('HINCRBY', ARGV[1] .. pending[i], 'p', -tonumber(pending[i + 1]))
end
redis.call('DEL', KEYS[1], KEYS[2])
return #holds / 2
`;

/** Idle accounts leave Redis after a week; the next call reloads the balance from the database. */
const accountTtlSeconds = 7 * 24 * 3600;
const refreshBatchSize = 500;

/** Credit holds shared by every gateway node through Redis (`REDIS_URL`). */
export function createRedisCreditHolds(deps: {
  db: Database;
  redis: Redis;
  keyPrefix: string;
  nodeId: string;
}): CreditHolds & { forgetPreviousLife: () => Promise<number> } {
  const { redis } = deps;
  const accountKey = (userId: string) => `${deps.keyPrefix}credit:${userId}`;
  const nodeHolds = `${deps.keyPrefix}node:${deps.nodeId}:holds`;
  const nodePending = `${deps.keyPrefix}node:${deps.nodeId}:pending`;
  const accounts = `${deps.keyPrefix}credit-accounts`;

  const load = async (snapshots: readonly BalanceSnapshot[], mode: 'reserve' | 'refresh') => {
    for (const snapshot of snapshots) {
      await redis.eval(
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
  };
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
  const free = async (holdId: string, userId: string) => {
    await redis.eval(releaseScript, 2, accountKey(userId), nodeHolds, holdId);
  };
  const available = async (userId: string): Promise<number> => {
    const [balance, held, pending] = await redis.hmget(accountKey(userId), 'b', 'h', 'p');
    return Number(balance ?? 0) - Number(held ?? 0) - Number(pending ?? 0);
  };

  return {
    reserve: async (input) => {
      let [outcome, amount] = await reserveOnce(input);
      if (outcome === 0) {
        await load(await listBalanceSnapshots(deps.db, [input.userId]), 'reserve');
        [outcome, amount] = await reserveOnce(input);
      }
      return outcome === 1 ? { holdId: input.holdId, userId: input.userId, heldMicros: amount } : undefined;
    },
    capture: async (hold, capturedMicros) => {
      await redis.eval(
        captureScript,
        3,
        accountKey(hold.userId),
        nodeHolds,
        nodePending,
        hold.holdId,
        String(capturedMicros),
        hold.userId,
      );
    },
    applyCommitted: async (charges) => {
      for (const charge of charges) {
        await redis.eval(
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
    },
    release: (hold) => free(hold.holdId, hold.userId),
    settleCommitted: async (hold) => {
      await load(await listBalanceSnapshots(deps.db, [hold.userId]), 'refresh');
      await free(hold.holdId, hold.userId);
    },
    availableMicros: async (userId) => {
      if (!(await redis.hexists(accountKey(userId), 'b'))) {
        await load(await listBalanceSnapshots(deps.db, [userId]), 'reserve');
      }
      return available(userId);
    },
    /** Every node re-reads every account Redis holds: simple, and cheap next to a top-up's rarity. */
    refresh: async () => {
      const userIds = await redis.smembers(accounts);
      for (let start = 0; start < userIds.length; start += refreshBatchSize) {
        await load(await listBalanceSnapshots(deps.db, userIds.slice(start, start + refreshBatchSize)), 'refresh');
      }
    },
    /** Takes back the holds and pending charges a previous process with this node id left (after its journal is
     * replayed, so that its charges are in the database before they stop counting as pending). */
    forgetPreviousLife: async () =>
      Number(await redis.eval(forgetNodeScript, 2, nodeHolds, nodePending, `${deps.keyPrefix}credit:`)),
  };
}
