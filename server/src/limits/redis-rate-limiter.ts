import type { Redis } from 'ioredis';
import { InternalError } from '../errors/internal-error.ts';
import { defineBatchedRedisScript } from '../lib/redis-script-batch.ts';
import type { RateLimitDecision, RateLimiter, RateLimitTake } from './rate-limiter.ts';

/**
 * The same GCRA as `stepGcra`, run atomically inside Redis so every gateway node shares one budget per subject:
 * for each key in order (its limit and cost at ARGV 2i-1 and 2i), stopping at the first refusal. Returns the
 * decisions as flat triples. Redis's own clock is used, so node clocks need not agree.
 */
const gcraScript = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local decisions = {}
for index, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[index * 2 - 1])
  local cost = tonumber(ARGV[index * 2])
  local interval = 60000 / limit
  local stored = redis.call('GET', key)
  local base = now
  if stored and tonumber(stored) > now then base = tonumber(stored) end
  local nextArrival = base + interval * cost
  local allowAt = nextArrival - 60000
  if allowAt > now then
    table.insert(decisions, 0)
    table.insert(decisions, math.ceil(allowAt - now))
    table.insert(decisions, math.ceil(base - now))
    return decisions
  end
  redis.call('SET', key, tostring(nextArrival), 'PX', math.ceil(nextArrival - now) + 1000)
  table.insert(decisions, 1)
  table.insert(decisions, math.floor((60000 - (nextArrival - now)) / interval))
  table.insert(decisions, math.ceil(nextArrival - now))
end
return decisions
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

const gcraCommand = defineBatchedRedisScript('gatewayRateLimitTake', gcraScript);
const adjustCommand = defineBatchedRedisScript('gatewayRateLimitAdjust', adjustScript);

export function createRedisRateLimiter(deps: { redis: Redis; keyPrefix: string }): RateLimiter {
  const redisKey = (subject: string) => `${deps.keyPrefix}ratelimit:${subject}`;
  const runGcra = gcraCommand(deps.redis);
  const runAdjust = adjustCommand(deps.redis);
  const takeInOrder = async (inputs: readonly RateLimitTake[]): Promise<RateLimitDecision[]> => {
    if (inputs.length === 0) return [];
    const keys = inputs.map((input) => redisKey(input.subject));
    const limits = inputs.flatMap((input) => [String(input.limitPerMinute), String(input.cost)]);
    const flat = (await runGcra(keys, limits)) as number[];
    const decisions: RateLimitDecision[] = [];
    for (let index = 0; index + 2 < flat.length; index += 3) {
      const [allowed, value, resetMs] = [flat[index], flat[index + 1] ?? 0, flat[index + 2] ?? 0];
      decisions.push(
        allowed === 1
          ? { isAllowed: true, remaining: Math.max(0, value), resetMs }
          : { isAllowed: false, retryAfterMs: value, resetMs },
      );
    }
    return decisions;
  };
  return {
    take: async (input) => {
      const [decision] = await takeInOrder([input]);
      if (!decision) throw new InternalError('The rate limit script returned no decision.');
      return decision;
    },
    takeInOrder,
    adjust: async (input) => {
      await runAdjust([redisKey(input.subject)], [String(input.limitPerMinute), String(input.delta)]);
    },
  };
}
