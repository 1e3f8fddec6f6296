import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RateLimitError } from '../errors/rate-limit-error.ts';
import { createMemoryRateLimiter } from './rate-limiter.ts';
import { settleTokens, takeTokens, type TokenLimit } from './token-budget.ts';

const account: TokenLimit = { subject: 'tokens:account:u1', limitPerMinute: 10_000, scope: 'account' };
const key: TokenLimit = { subject: 'tokens:key:k1', limitPerMinute: 4_000, scope: 'key' };

test('a call takes its estimate from the account and the key, and reports the key budget in headers', async () => {
  const rateLimiter = createMemoryRateLimiter({ nowMs: () => 5_000_000 });
  const { taken, headers } = await takeTokens({ rateLimiter }, { limits: [account, key], tokens: 3_000 });
  assert.deepEqual(headers, {
    'x-ratelimit-limit-tokens': '4000',
    'x-ratelimit-remaining-tokens': '1000',
    'x-ratelimit-reset-tokens': '45s',
  });
  await assert.rejects(
    takeTokens({ rateLimiter }, { limits: [account, key], tokens: 3_000 }),
    (error: unknown) =>
      error instanceof RateLimitError &&
      error.type === 'tokens' &&
      error.headers['x-ratelimit-remaining-tokens'] === '0' &&
      Number(error.headers['retry-after']) === 30,
  );
  const accountAfterRefusal = await rateLimiter.take({ ...account, cost: 7_000 });
  assert.ok(accountAfterRefusal.isAllowed, 'the refused call gave its account share back: 3,000 + 7,000 fit');
  await settleTokens({ rateLimiter }, taken, 500);
  const key2 = await rateLimiter.take({ ...key, cost: 3_500 });
  assert.ok(key2.isAllowed, 'the call really used 500 tokens, so 3,500 are free again');
});
