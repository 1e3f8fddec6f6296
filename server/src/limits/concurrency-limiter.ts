import type { Redis } from 'ioredis';
import { defineBatchedRedisScript } from '../lib/redis-script-batch.ts';

/**
 * How many calls of one subject (an account) run at once. A slot is named by the call's request id; a slot a node
 * never gave back (it died mid-call) lapses after its lease, so a crash cannot lock an account out for good.
 */
export type ConcurrencyLimiter = {
  /** Takes a slot of `subject` unless `limit` are taken; false when they are. */
  acquire: (input: { subject: string; slotId: string; limit: number }) => Promise<boolean>;
  release: (input: { subject: string; slotId: string }) => Promise<void>;
};

/** The longest a slot outlives a call that never released it (a node that died); long streams stay well inside. */
export const slotLeaseMs = 30 * 60_000;

/** Slots held in this process: right for a single node, where a crash ends every call with it. */
export function createMemoryConcurrencyLimiter(): ConcurrencyLimiter {
  const slots = new Map<string, Set<string>>();
  return {
    acquire: async (input) => {
      const taken = slots.get(input.subject) ?? new Set<string>();
      if (taken.size >= input.limit) return false;
      taken.add(input.slotId);
      slots.set(input.subject, taken);
      return true;
    },
    release: async (input) => {
      const taken = slots.get(input.subject);
      if (!taken) return;
      taken.delete(input.slotId);
      if (taken.size === 0) slots.delete(input.subject);
    },
  };
}

/**
 * One sorted set per subject in Redis, shared by every node: members are slot ids scored by when their lease ends
 * (Redis's clock), so lapsed slots are dropped before counting, all in one script.
 */
const acquireScript = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local leaseMs = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
if redis.call('ZCARD', key) >= limit then return 0 end
redis.call('ZADD', key, now + leaseMs, ARGV[3])
redis.call('PEXPIRE', key, leaseMs)
return 1
`;

const acquireCommand = defineBatchedRedisScript('gatewayConcurrencyAcquire', acquireScript);

export function createRedisConcurrencyLimiter(deps: { redis: Redis; keyPrefix: string }): ConcurrencyLimiter {
  const redisKey = (subject: string) => `${deps.keyPrefix}concurrency:${subject}`;
  const runAcquire = acquireCommand(deps.redis);
  return {
    acquire: async (input) => {
      const result = await runAcquire(
        [redisKey(input.subject)],
        [String(input.limit), String(slotLeaseMs), input.slotId],
      );
      return result === 1;
    },
    release: async (input) => {
      await deps.redis.zrem(redisKey(input.subject), input.slotId);
    },
  };
}
