import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { budgetPeriodOf, createMemorySpendBudgets, type SpendBudgets } from './spend-budgets.ts';
import { createRedisSpendBudgets } from './redis-spend-budgets.ts';
import { testRedisUrl } from '../../test/support/test-redis.ts';

const lastHourOfNovember = Date.UTC(2026, 10, 30, 23);

const takeOf = (budgets: SpendBudgets, shareId: string, nowMs = lastHourOfNovember) =>
  budgets.take({
    keyId: 'key_1',
    shareId,
    budgets: [
      { window: 'day', budgetMicros: 1_000, spentMicros: 0 },
      { window: 'month', budgetMicros: 5_000, spentMicros: 3_700 },
    ],
    desiredMicros: 600,
    minimumMicros: 100,
    nowMs,
  });

const micros = (taken: Awaited<ReturnType<SpendBudgets['take']>>) => ('share' in taken ? taken.share.micros : 0);

describe('budget periods', () => {
  test('a UTC day and a UTC month, each ending at the next one’s first instant', () => {
    assert.deepEqual(budgetPeriodOf('day', lastHourOfNovember), {
      periodId: '2026-11-30',
      startsAtMs: Date.UTC(2026, 10, 30),
      endsAtMs: Date.UTC(2026, 11, 1),
    });
    assert.deepEqual(budgetPeriodOf('month', Date.UTC(2026, 11, 31, 23, 59)), {
      periodId: '2026-12',
      startsAtMs: Date.UTC(2026, 11, 1),
      endsAtMs: Date.UTC(2027, 0, 1),
    });
  });
});

/** The same rules for both kinds: `second` is another node where there can be one, the same budgets otherwise. */
function behavesAsBudgets(make: () => { first: SpendBudgets; second: SpendBudgets }) {
  test('calls in flight share every budget: the smallest remainder decides, the one past it is refused', async () => {
    const { first, second } = make();
    const a = await takeOf(first, 'a');
    const b = await takeOf(second, 'b');
    assert.equal(micros(a), 600, 'the day leaves 1,000 and the month 1,300');
    assert.equal(micros(b), 400, 'the second gets what the day leaves');
    assert.deepEqual(await takeOf(first, 'c'), {
      refusal: { window: 'day', budgetMicros: 1_000, endsAtMs: Date.UTC(2026, 11, 1) },
    });
    assert.ok('share' in a);
    await second.finish({ share: a.share, chargedMicros: 250 });
    assert.equal(micros(await takeOf(first, 'd')), 350, 'a finished call frees its share less what it was charged');
  });

  test('what a call was charged stays spent in its periods; a new day and month start from nothing', async () => {
    const { first, second } = make();
    const a = await takeOf(first, 'a');
    assert.ok('share' in a);
    await first.finish({ share: a.share, chargedMicros: 600 });
    const monthOnly = (shareId: string, nowMs: number, spentMicros: number) =>
      second.take({
        keyId: 'key_1',
        shareId,
        budgets: [{ window: 'month', budgetMicros: 5_000, spentMicros }],
        desiredMicros: 5_000,
        minimumMicros: 1,
        nowMs,
      });
    const november = await monthOnly('b', lastHourOfNovember, 3_700);
    assert.equal(micros(november), 5_000 - 3_700 - 600, 'November counts the 600 charged');
    assert.ok('share' in november);
    await second.finish({ share: november.share, chargedMicros: 0 });
    const december = Date.UTC(2026, 11, 1, 0, 1);
    const dayAndMonth = await second.take({
      keyId: 'key_1',
      shareId: 'c',
      budgets: [
        { window: 'day', budgetMicros: 1_000, spentMicros: 0 },
        { window: 'month', budgetMicros: 5_000, spentMicros: 0 },
      ],
      desiredMicros: 1_000,
      minimumMicros: 1,
      nowMs: december,
    });
    assert.equal(micros(dayAndMonth), 1_000, 'the new day has its whole budget');
    assert.equal(micros(await monthOnly('d', december, 0)), 4_000, 'December counts only its own call in flight');
  });
}

describe('spend budgets in memory', () => {
  behavesAsBudgets(() => {
    const budgets = createMemorySpendBudgets();
    return { first: budgets, second: budgets };
  });
});

describe('spend budgets in Redis (two nodes)', () => {
  let redis: Redis;
  before(() => {
    redis = new Redis(testRedisUrl(), { lazyConnect: false, maxRetriesPerRequest: 1 });
  });
  after(() => redis.quit());
  let run = 0;
  const nodes = () => {
    run += 1;
    const keyPrefix = `test:${process.pid}:${Date.now()}:${run}:`;
    return {
      first: createRedisSpendBudgets({ redis, keyPrefix }),
      second: createRedisSpendBudgets({ redis, keyPrefix }),
    };
  };
  behavesAsBudgets(nodes);

  test('many calls at once from two nodes never set aside more than the budget', async () => {
    const { first, second } = nodes();
    const taken = await Promise.all(
      Array.from({ length: 40 }, (_, index) => takeOf(index % 2 === 0 ? first : second, `s${index}`)),
    );
    const total = taken.reduce((sum, result) => sum + micros(result), 0);
    assert.equal(total, 1_000, 'the day’s budget, exactly');
    assert.ok(taken.some((result) => 'refusal' in result));
  });

  test('Redis restarting empty: the spending the nodes know is taken again', async () => {
    const keyPrefix = `test:${process.pid}:${Date.now()}:restart:`;
    const budgets = createRedisSpendBudgets({ redis, keyPrefix });
    const a = await takeOf(budgets, 'a');
    assert.equal(micros(a), 600);
    for (const key of await redis.keys(`${keyPrefix}*`)) await redis.del(key);
    const fresh = await budgets.take({
      keyId: 'key_1',
      shareId: 'b',
      budgets: [{ window: 'day', budgetMicros: 1_000, spentMicros: 900 }],
      desiredMicros: 600,
      minimumMicros: 50,
      nowMs: lastHourOfNovember,
    });
    assert.equal(micros(fresh), 100);
  });
});
