import type { Redis } from 'ioredis';
import type { RateLimiter } from './rate-limiter.ts';

/**
 * The same GCRA as `stepGcra`, run atomically inside Redis so every gateway node shares one budget per subject.
 * Redis's own clock is used, so node clocks need not agree.
 */
const gcraScript = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local interval = 60000 / limit
local stored = redis.call('GET', key)
local base = now
if stored and tonumber(stored) > now then base = tonumber(stored) end
local nextArrival = base + interval * cost
local allowAt = nextArrival - 60000
if allowAt > now then
  return {0, math.ceil(allowAt - now), math.ceil(base - now)}
end
redis.call('SET', key, tostring(nextArrival), 'PX', math.ceil(nextArrival - now) + 1000)
return {1, math.floor((60000 - (nextArrival - now)) / interval), math.ceil(nextArrival - now)}
`;

/** `adjustGcra` inside Redis: the arrival time moves by `delta` intervals, never below now (a full budget). */
const adjustScript = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local delta = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local stored = redis.call('GET', key)
local base = now
if stored and tonumber(stored) > now then base = tonumber(stored) end
local nextArrival = base + (60000 / limit) * delta
if nextArrival <= now then
  redis.call('DEL', key)
  return 0
end
redis.call('SET', key, tostring(nextArrival), 'PX', math.ceil(nextArrival - now) + 1000)
return 1
`;

export function createRedisRateLimiter(deps: { redis: Redis; keyPrefix: string }): RateLimiter {
  const redisKey = (subject: string) => `${deps.keyPrefix}ratelimit:${subject}`;
  return {
    take: async (input) => {
      const result = (await deps.redis.eval(
        gcraScript,
        1,
        redisKey(input.subject),
        String(input.limitPerMinute),
        String(input.cost),
      )) as [number, number, number];
      const [allowed, value, resetMs] = result;
      return allowed === 1
        ? { isAllowed: true, remaining: Math.max(0, value), resetMs }
        : { isAllowed: false, retryAfterMs: value, resetMs };
    },
    adjust: async (input) => {
      await deps.redis.eval(
        adjustScript,
        1,
        redisKey(input.subject),
        String(input.limitPerMinute),
        String(input.delta),
      );
    },
  };
}
