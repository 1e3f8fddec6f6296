import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { createMemoryRateLimiter, type RateLimiter } from './rate-limiter.ts';
import { createRedisRateLimiter } from './redis-rate-limiter.ts';
import { testRedisUrl } from '../../test/support/test-redis.ts';

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
});
