import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { createMemoryRateLimiter, type RateLimiter } from './rate-limiter.ts';
import { createRedisRateLimiter } from './redis-rate-limiter.ts';
import { testRedisUrl } from '../../test/support/test-redis.ts';

/** Budgets of 2 (account) and 3 (key) per minute taken together: the key's is untouched once the account refuses. */
async function checkTakeInOrder(limiter: RateLimiter, prefix: string) {
  const account = { subject: `${prefix}account`, limitPerMinute: 2, cost: 1 };
  const key = { subject: `${prefix}key`, limitPerMinute: 3, cost: 1 };
  const rounds = [];
  for (let index = 0; index < 3; index += 1) rounds.push(await limiter.takeInOrder([account, key]));
  assert.deepEqual(
    rounds.map((decisions) => decisions.map((decision) => decision.isAllowed)),
    [[true, true], [true, true], [false]],
  );
  const keyLeft = await limiter.take(key);
  assert.ok(keyLeft.isAllowed && keyLeft.remaining === 0, 'the refused round took nothing from the key');
  const keyRefused = await limiter.takeInOrder([{ ...account, subject: `${prefix}other` }, key]);
  assert.deepEqual(
    keyRefused.map((decision) => decision.isAllowed),
    [true, false],
  );
  assert.deepEqual(await limiter.takeInOrder([]), []);
}

async function takeMany(limiter: RateLimiter, subject: string, count: number) {
  const decisions = [];
  for (let index = 0; index < count; index += 1)
    decisions.push(await limiter.take({ subject, limitPerMinute: 5, cost: 1 }));
  return decisions;
}

describe('memory rate limiter', () => {
  test('admits the limit per minute, then refuses with a retry time, then admits again as time passes', async () => {
    let nowMs = 1_000_000;
    const limiter = createMemoryRateLimiter({ nowMs: () => nowMs });
    const decisions = await takeMany(limiter, 'key-a', 6);
    assert.deepEqual(
      decisions.map((decision) => decision.isAllowed),
      [true, true, true, true, true, false],
    );
    const refused = decisions[5];
    assert.ok(refused && !refused.isAllowed);
    assert.equal(refused.retryAfterMs, 12_000);
    nowMs += 12_000;
    assert.equal((await limiter.take({ subject: 'key-a', limitPerMinute: 5, cost: 1 })).isAllowed, true);
    assert.equal((await limiter.take({ subject: 'key-b', limitPerMinute: 5, cost: 1 })).isAllowed, true);
  });

  test('takes several budgets in order and stops at the first refusal', async () => {
    await checkTakeInOrder(createMemoryRateLimiter({ nowMs: () => 1_000_000 }), 'in-order:');
  });

  test('a token budget admits an estimate, gives back what was not used, and goes into debt for what was', async () => {
    let nowMs = 1_000_000;
    const limiter = createMemoryRateLimiter({ nowMs: () => nowMs });
    const budget = { subject: 'tokens:key-a', limitPerMinute: 6_000 };
    const first = await limiter.take({ ...budget, cost: 6_000 });
    assert.ok(first.isAllowed && first.remaining === 0);
    assert.equal((await limiter.take({ ...budget, cost: 1 })).isAllowed, false, 'the whole minute is taken');
    await limiter.adjust({ ...budget, delta: -5_000 });
    const second = await limiter.take({ ...budget, cost: 5_000 });
    assert.ok(second.isAllowed, 'the unused 5,000 came back');
    await limiter.adjust({ ...budget, delta: 3_000 });
    const refused = await limiter.take({ ...budget, cost: 1 });
    assert.ok(!refused.isAllowed);
    assert.equal(refused.retryAfterMs, 30_010, '3,000 tokens of debt and the one asked for, at 10 ms per token');
    nowMs += 30_010;
    assert.equal((await limiter.take({ ...budget, cost: 1 })).isAllowed, true, 'the debt is paid off with time');
    await limiter.adjust({ ...budget, delta: -1_000_000 });
    const full = await limiter.take({ ...budget, cost: 6_000 });
    assert.ok(full.isAllowed, 'giving back never makes a budget larger than its limit');
    assert.equal((await limiter.take({ ...budget, cost: 1 })).isAllowed, false);
  });
});

describe('redis rate limiter', () => {
  let redis: Redis;
  before(() => {
    redis = new Redis(testRedisUrl(), { lazyConnect: false, maxRetriesPerRequest: 1 });
  });
  after(() => redis.quit());

  test('two limiters (two nodes) share one budget', async () => {
    const prefix = `test:${Date.now()}:`;
    const nodeA = createRedisRateLimiter({ redis, keyPrefix: prefix });
    const nodeB = createRedisRateLimiter({ redis, keyPrefix: prefix });
    const decisions = [...(await takeMany(nodeA, 'shared', 3)), ...(await takeMany(nodeB, 'shared', 3))];
    assert.deepEqual(
      decisions.map((decision) => decision.isAllowed),
      [true, true, true, true, true, false],
    );
    const refused = decisions[5];
    assert.ok(refused && !refused.isAllowed);
    assert.ok(refused.retryAfterMs > 10_000 && refused.retryAfterMs <= 12_000, String(refused.retryAfterMs));
  });

  test('takes several budgets in order in one script and stops at the first refusal', async () => {
    await checkTakeInOrder(createRedisRateLimiter({ redis, keyPrefix: `test:${Date.now()}:in-order:` }), '');
  });

  test('corrections from one node move the budget the other node sees, into debt and back', async () => {
    const prefix = `test:${Date.now()}:adjust:`;
    const nodeA = createRedisRateLimiter({ redis, keyPrefix: prefix });
    const nodeB = createRedisRateLimiter({ redis, keyPrefix: prefix });
    const budget = { subject: 'tokens:shared', limitPerMinute: 6_000 };
    const startedAtMs = Date.now();
    assert.equal((await nodeA.take({ ...budget, cost: 6_000 })).isAllowed, true);
    assert.equal((await nodeB.take({ ...budget, cost: 100 })).isAllowed, false);
    await nodeA.adjust({ ...budget, delta: -5_000 });
    assert.equal((await nodeB.take({ ...budget, cost: 4_000 })).isAllowed, true, 'node B sees the tokens given back');
    await nodeB.adjust({ ...budget, delta: 60_000 });
    const refused = await nodeA.take({ ...budget, cost: 1 });
    assert.ok(!refused.isAllowed);
    // 65,000 tokens taken against 6,000 a minute: 59,000 over, i.e. 590 s of refill, less what refilled since the
    // first take (a few milliseconds; more on a loaded machine, which made an exact 590,000 bound flaky), give or take
    // one token's 10 ms of rounding.
    const refilledMs = Date.now() - startedAtMs + 1;
    assert.ok(
      refused.retryAfterMs > 590_000 - refilledMs - 10 && refused.retryAfterMs <= 590_010,
      `a debt of 590 s less the ${refilledMs} ms refilled since: ${refused.retryAfterMs} ms`,
    );
    await nodeA.adjust({ ...budget, delta: -1_000_000 });
    assert.equal((await nodeB.take({ ...budget, cost: 6_000 })).isAllowed, true, 'the budget is whole again');
    assert.equal((await nodeB.take({ ...budget, cost: 1 })).isAllowed, false, 'and no larger than its limit');
  });
});
