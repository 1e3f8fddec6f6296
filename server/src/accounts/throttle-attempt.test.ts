import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { RateLimitError } from '../errors/rate-limit-error.ts';
import { createMemoryRateLimiter } from '../limits/rate-limiter.ts';
import { createRedisRateLimiter } from '../limits/redis-rate-limiter.ts';
import { testRedisUrl } from '../../test/support/test-redis.ts';
import { loginAttemptsPerMinutePerAddressAndEmail, throttleAttempt } from './throttle-attempt.ts';

describe('sign-in throttling', () => {
  test('admits the per-address-and-e-mail budget, then refuses with a Retry-After, then admits again as time passes', async () => {
    let nowMs = 1_000_000;
    const deps = { rateLimiter: createMemoryRateLimiter({ nowMs: () => nowMs }) };
    const subject = { kind: 'login-address-email', clientIp: '192.0.2.1', email: 'a@example.com' } as const;
    for (let attempt = 0; attempt < loginAttemptsPerMinutePerAddressAndEmail; attempt += 1) {
      await throttleAttempt(deps, subject);
    }
    await assert.rejects(throttleAttempt(deps, subject), (error: unknown) => {
      assert.ok(error instanceof RateLimitError);
      assert.equal(error.headers['retry-after'], '6');
      return true;
    });
    await throttleAttempt(deps, { kind: 'login-address-email', clientIp: '192.0.2.1', email: 'b@example.com' });
    await throttleAttempt(deps, { kind: 'login-address-email', clientIp: '192.0.2.2', email: 'a@example.com' });
    nowMs += 6_000;
    await throttleAttempt(deps, subject);
  });

  describe('with Redis', () => {
    let redis: Redis;
    before(() => {
      redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: 1 });
    });
    after(() => redis.quit());

    test('two gateway nodes share one budget per address and e-mail, and the e-mail is not stored in clear', async () => {
      const keyPrefix = `test:${Date.now()}:${Math.random()}:`;
      const nodes = [0, 1].map(() => ({ rateLimiter: createRedisRateLimiter({ redis, keyPrefix }) }));
      const subject = { kind: 'login-address-email', clientIp: '192.0.2.1', email: 'shared@example.com' } as const;
      for (let attempt = 0; attempt < loginAttemptsPerMinutePerAddressAndEmail; attempt += 1) {
        await throttleAttempt(nodes[attempt % 2]!, subject);
      }
      await assert.rejects(throttleAttempt(nodes[0]!, subject), RateLimitError);
      const keys = await redis.keys(`${keyPrefix}*`);
      assert.equal(keys.length, 1);
      assert.ok(!keys[0]!.includes('shared@example.com'));
    });
  });
});
