import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AccountLimits } from '../limits/account-limits.ts';
import { createMemoryConcurrencyLimiter } from '../limits/concurrency-limiter.ts';
import { createMemoryRateLimiter } from '../limits/rate-limiter.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
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
  const open = (requestId: string) =>
    admitCall(deps, { caller, requestId, setHeaders: (value) => void headers.push(value) });
  const admit = async (requestId: string) => {
    const admission = open(requestId);
    await admission.admit();
    return admission;
  };
  const isSlotFree = async () => {
    // Slot releases are sent, not awaited: let them land first.
    await new Promise((resolve) => setImmediate(resolve));
    const probe = { subject: 'account:usr_1', slotId: 'probe', limit: limits.concurrent };
    const isFree = await concurrencyLimiter.acquire(probe);
    if (isFree) await concurrencyLimiter.release(probe);
    return isFree;
  };
  return { open, admit, headers, isSlotFree };
}

test('an admitted call holds a slot until disposed of and gets the request budget headers', async () => {
  const { admit, headers, isSlotFree } = setUp({ requestsPerMinute: 60, concurrent: 1 });
  const admission = await admit('req_1');
  assert.equal(headers[0]?.['x-ratelimit-limit-requests'], '60');
  assert.equal(headers[0]?.['x-ratelimit-remaining-requests'], '59');
  assert.equal(await isSlotFree(), false);
  await admission[Symbol.asyncDispose]();
  assert.equal(await isSlotFree(), true);
});

test('admit asks once: a second call shares the first answer and takes nothing more', async () => {
  const { open, headers } = setUp({ requestsPerMinute: 60, concurrent: 1 });
  const admission = open('req_1');
  await Promise.all([admission.admit(), admission.admit()]);
  await admission.admit();
  assert.equal(headers.length, 1);
  assert.equal(headers[0]?.['x-ratelimit-remaining-requests'], '59');
});

test('over the request budget: its 429 wins and the slot taken beside it is given back', async () => {
  const { admit, isSlotFree } = setUp({ requestsPerMinute: 1, concurrent: 1 });
  await (await admit('req_1'))[Symbol.asyncDispose]();
  await assert.rejects(admit('req_2'), (error: unknown) => {
    assert.ok(error instanceof RateLimitError);
    assert.match(error.message, /requests per minute/);
    return true;
  });
  assert.equal(await isSlotFree(), true);
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

test('a call that failed before it took credit is admitted then: its own error within the budget, counted', async () => {
  const { open, headers, isSlotFree } = setUp({ requestsPerMinute: 2, concurrent: 1 });
  const badRequest = new InvalidRequestError('bad', { param: 'model' });
  const first = open('req_1');
  assert.equal(await first.refusalOr(badRequest), badRequest);
  assert.equal(headers[0]?.['x-ratelimit-remaining-requests'], '1');
  await first[Symbol.asyncDispose]();
  assert.equal(await isSlotFree(), true);
  await open('req_2').admit();
  const third = open('req_3');
  const answered = await third.refusalOr(badRequest);
  assert.ok(answered instanceof RateLimitError, 'over its budget, a bad request still gets the 429');
  assert.match(answered.message, /requests per minute/);
});
