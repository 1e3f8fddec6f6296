import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AccountLimits } from '../limits/account-limits.ts';
import { createMemoryConcurrencyLimiter } from '../limits/concurrency-limiter.ts';
import { createMemoryRateLimiter } from '../limits/rate-limiter.ts';
import { RateLimitError } from '../errors/rate-limit-error.ts';
import { admitCall } from './admit-call.ts';
import type { Caller } from './authenticate.ts';

const caller = { userId: 'usr_1', isOperator: false, key: { id: 'key_1', requestsPerMinute: null } } as Caller;

function setUp(limits: { requestsPerMinute: number; concurrent: number }) {
  const accountLimits: AccountLimits = {
    keyRequestsPerMinute: limits.requestsPerMinute,
    keyTokensPerMinute: undefined,
    accountRequestsPerMinute: limits.requestsPerMinute,
    accountTokensPerMinute: undefined,
    accountConcurrentRequests: limits.concurrent,
    maxKeys: 10,
  };
  const concurrencyLimiter = createMemoryConcurrencyLimiter();
  const deps = {
    rateLimiter: createMemoryRateLimiter({ nowMs: () => Date.UTC(2026, 10, 27) }),
    concurrencyLimiter,
    accountTerms: { limitsOf: () => accountLimits },
  };
  const headers: Record<string, string>[] = [];
  const admit = (requestId: string) =>
    admitCall(deps, { caller, requestId, setHeaders: (value) => void headers.push(value) });
  return { admit, headers, concurrencyLimiter };
}

test('an admitted call holds a slot until disposed of and gets the request budget headers', async () => {
  const { admit, headers, concurrencyLimiter } = setUp({ requestsPerMinute: 60, concurrent: 1 });
  const slot = await admit('req_1');
  assert.equal(headers[0]?.['x-ratelimit-limit-requests'], '60');
  assert.equal(headers[0]?.['x-ratelimit-remaining-requests'], '59');
  assert.equal(await concurrencyLimiter.acquire({ subject: 'account:usr_1', slotId: 'probe', limit: 1 }), false);
  await slot[Symbol.asyncDispose]();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(await concurrencyLimiter.acquire({ subject: 'account:usr_1', slotId: 'probe', limit: 1 }), true);
});

test('over the request budget: its 429 wins and the slot taken beside it is given back', async () => {
  const { admit, concurrencyLimiter } = setUp({ requestsPerMinute: 1, concurrent: 1 });
  await (await admit('req_1'))[Symbol.asyncDispose]();
  await assert.rejects(admit('req_2'), (error: unknown) => {
    assert.ok(error instanceof RateLimitError);
    assert.match(error.message, /requests per minute/);
    return true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(await concurrencyLimiter.acquire({ subject: 'account:usr_1', slotId: 'probe', limit: 1 }), true);
});

test('no slot left: the concurrency 429, with the request budget headers already set', async () => {
  const { admit, headers } = setUp({ requestsPerMinute: 60, concurrent: 1 });
  await admit('req_1');
  await assert.rejects(admit('req_2'), (error: unknown) => {
    assert.ok(error instanceof RateLimitError);
    assert.match(error.message, /concurrent requests/);
    return true;
  });
  assert.equal(headers[1]?.['x-ratelimit-remaining-requests'], '58');
});
