import type { Redis } from 'ioredis';
import { defineBatchedRedisScript } from '../lib/redis-script-batch.ts';
import { slotLeaseMs } from './concurrency-limiter.ts';
import { budgetPeriodOf, type BudgetShare, type SpendBudgets } from './spend-budgets.ts';

/**
 * One hash per key and period in Redis, shared by every node: `spent` (the larger of what the nodes report and what
 * finished calls added) and one `h:<share id>` field per call in flight, `<micros>:<lease end>`. A share whose node
 * died lapses at the end of its lease (Redis's clock), like a concurrency slot. All budgets of the call are checked
 * and taken in one script. If Redis restarts empty, `spent` is rebuilt from what the nodes know (the database's sum
 * at their last key reload plus their own charges since).
 */
const takeScript = `
local desired = tonumber(ARGV[1])
local minimum = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local available = desired
for i, key in ipairs(KEYS) do
  local base = 5 + (i - 1) * 3
  local budget = tonumber(ARGV[base])
  local spent = tonumber(redis.call('HGET', key, 'spent') or '0')
  local known = tonumber(ARGV[base + 1])
  if known > spent then
    spent = known
    redis.call('HSET', key, 'spent', string.format('%d', spent))
  end
  local held = 0
  local fields = redis.call('HGETALL', key)
  for j = 1, #fields, 2 do
    if string.sub(fields[j], 1, 2) == 'h:' then
      local micros, untilMs = string.match(fields[j + 1], '^(%d+):(%d+)$')
      if tonumber(untilMs) <= now then
        redis.call('HDEL', key, fields[j])
      else
        held = held + tonumber(micros)
      end
    end
  end
  local left = budget - spent - held
  if left < minimum then return -i end
  if left < available then available = left end
end
for i, key in ipairs(KEYS) do
  redis.call('HSET', key, 'h:' .. ARGV[3], string.format('%d', available) .. ':' .. string.format('%d', now + tonumber(ARGV[4])))
  redis.call('PEXPIREAT', key, ARGV[5 + (i - 1) * 3 + 2])
end
return available
`;

const finishScript = `
for i, key in ipairs(KEYS) do
  redis.call('HDEL', key, 'h:' .. ARGV[1])
  redis.call('HINCRBY', key, 'spent', ARGV[2])
  redis.call('PEXPIREAT', key, ARGV[2 + i])
end
return 1
`;

/** A period's hash outlives its end by a day, so a call finishing just after midnight still finds it. */
const keepAfterEndMs = 24 * 60 * 60_000;

const takeCommand = defineBatchedRedisScript('gatewaySpendBudgetTake', takeScript);
const finishCommand = defineBatchedRedisScript('gatewaySpendBudgetFinish', finishScript);

export function createRedisSpendBudgets(deps: { redis: Redis; keyPrefix: string }): SpendBudgets {
  const redisKey = (keyId: string, periodId: string) => `${deps.keyPrefix}spend-budget:${keyId}:${periodId}`;
  const runTake = takeCommand(deps.redis);
  const runFinish = finishCommand(deps.redis);
  return {
    take: async (input) => {
      const periods = input.budgets.map((budget) => ({
        window: budget.window,
        ...budgetPeriodOf(budget.window, input.nowMs),
      }));
      const result = await runTake(
        periods.map((period) => redisKey(input.keyId, period.periodId)),
        [
          String(input.desiredMicros),
          String(input.minimumMicros),
          input.shareId,
          String(slotLeaseMs),
          ...input.budgets.flatMap((budget, index) => [
            String(budget.budgetMicros),
            String(budget.spentMicros),
            String(periods[index]!.endsAtMs + keepAfterEndMs),
          ]),
        ],
      );
      const micros = Number(result);
      if (micros < 0) {
        const refused = input.budgets[-micros - 1]!;
        const { endsAtMs } = periods[-micros - 1]!;
        return { refusal: { window: refused.window, budgetMicros: refused.budgetMicros, endsAtMs } };
      }
      const share: BudgetShare = { keyId: input.keyId, shareId: input.shareId, periods, micros };
      return { share };
    },
    finish: async ({ share, chargedMicros }) => {
      await runFinish(
        share.periods.map((period) => redisKey(share.keyId, period.periodId)),
        [
          share.shareId,
          String(chargedMicros),
          ...share.periods.map((period) => String(period.endsAtMs + keepAfterEndMs)),
        ],
      );
    },
  };
}
