import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { createRedisConcurrencyLimiter } from '../limits/concurrency-limiter.ts';
import { createRedisRateLimiter } from '../limits/redis-rate-limiter.ts';
import { testRedisUrl } from '../../test/support/test-redis.ts';
import { defineRedisScript } from './define-redis-script.ts';

const counterLua = "return redis.call('INCRBY', KEYS[1], ARGV[1])";
const counterScript = defineRedisScript('testCounterIncrement', counterLua);

/** The last command Redis ran for connection `id`, as `CLIENT LIST` names it (`eval`, `evalsha`). */
async function lastCommandOf(id: string, observer: Redis): Promise<string> {
  const line = String(await observer.client('LIST', 'ID', id));
  return /\bcmd=(\S+)/.exec(line)?.[1] ?? '';
}

describe('scripts by SHA', () => {
  let redis: Redis;
  let observer: Redis;
  before(() => {
    redis = new Redis(testRedisUrl(), { enableAutoPipelining: true, maxRetriesPerRequest: 1 });
    observer = new Redis(testRedisUrl(), { maxRetriesPerRequest: 1 });
  });
  after(async () => {
    await redis.quit();
    await observer.quit();
  });

  test('carries the text once per connection, then only the SHA', async () => {
    const key = `test:sha:${Date.now()}`;
    const increment = counterScript(redis);
    // CLIENT ID runs before the script on the same connection, so the script's command is the last one seen after it.
    const id = String(await redis.client('ID'));
    const commands: string[] = [];
    for (let index = 1; index <= 3; index += 1) {
      assert.equal(await increment([key], ['2']), index * 2);
      commands.push(await lastCommandOf(id, observer));
    }
    // A fresh connection sends the text once; every later call only the SHA.
    assert.deepEqual(commands, ['eval', 'evalsha', 'evalsha']);
  });

  test('after SCRIPT FLUSH, calls in flight and the next ones still answer, in one batch', async () => {
    const key = `test:sha-flush:${Date.now()}`;
    const increment = counterScript(redis);
    assert.equal(await increment([key], ['1']), 1);
    await observer.script('FLUSH');
    const sha = createHash('sha1').update(counterLua).digest('hex');
    assert.deepEqual(await observer.script('EXISTS', sha), [0], 'the cache is empty');
    // Sent in one turn: auto-pipelined into one write, every one refused with NOSCRIPT and sent again with its text.
    const answers = await Promise.all([1, 2, 3, 4].map(() => increment([key], ['1'])));
    assert.deepEqual([...answers].sort(), [2, 3, 4, 5]);
    assert.deepEqual(await observer.script('EXISTS', sha), [1], 'the retry loaded the script again');
    const id = String(await redis.client('ID'));
    assert.equal(await increment([key], ['1']), 6);
    assert.equal(await lastCommandOf(id, observer), 'evalsha');
  });

  test('the limiters answer through a script cache flush and a reconnect', async () => {
    const prefix = `test:sha-limits:${Date.now()}:`;
    const limiter = createRedisRateLimiter({ redis, keyPrefix: prefix });
    const slots = createRedisConcurrencyLimiter({ redis, keyPrefix: prefix });
    const budget = { subject: 'account', limitPerMinute: 3, cost: 1 };
    assert.equal((await limiter.take(budget)).isAllowed, true);
    assert.equal(await slots.acquire({ subject: 'account', slotId: 'a', limit: 1 }), true);
    await observer.script('FLUSH');
    assert.equal((await limiter.take(budget)).isAllowed, true);
    assert.equal(await slots.acquire({ subject: 'account', slotId: 'b', limit: 1 }), false, 'slot a still held');
    // A restart is a new connection: the first use on it carries the text again.
    await observer.script('FLUSH');
    await observer.client('KILL', 'ID', String(await redis.client('ID')));
    assert.equal((await limiter.take(budget)).isAllowed, true);
    const refused = await limiter.take(budget);
    assert.equal(refused.isAllowed, false, 'the fourth take of three per minute is refused');
    await limiter.adjust({ ...budget, delta: -1 });
    assert.equal((await limiter.take(budget)).isAllowed, true, 'the adjustment gave one back');
  });
});
