import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { startCreditFence } from './start-credit-fence.ts';

/** A fence on a hand-moved clock, checking every 5 ms; `open` is how many calls the node has open. */
function fenceOn(input: { open: number }) {
  const clock = { nowMs: 0, renewedAtMs: 0 };
  const fenced: number[] = [];
  const errors: unknown[] = [];
  const fence = startCreditFence({
    leaseRenewedAtMs: () => clock.renewedAtMs,
    monotonicNowMs: () => clock.nowMs,
    leaseMs: 10_000,
    marginMs: 3_000,
    intervalMs: 5,
    cutOpenCalls: () => {
      const cut = input.open;
      input.open = 0;
      return cut;
    },
    onFence: (calls) => fenced.push(calls),
    logger: { error: (fields: unknown) => errors.push(fields) },
  });
  return { clock, fenced, errors, fence };
}

test('the fence cuts the open calls once the lease was not renewed for lease - margin, and not before', async () => {
  const open = { open: 3 };
  const { clock, fenced, errors, fence } = fenceOn(open);
  try {
    clock.nowMs = 6_999;
    await sleep(30);
    assert.deepEqual(fenced, [], 'within lease - margin nothing is cut');
    clock.nowMs = 7_000;
    await sleep(30);
    assert.deepEqual(fenced, [3], 'at lease - margin every open call is cut, once');
    assert.equal(errors.length, 1, 'and the operator is told');
    assert.deepEqual(errors[0], { calls: 3, sinceLeaseRenewalMs: 7_000, leaseMs: 10_000 });
    open.open = 1;
    await sleep(30);
    assert.deepEqual(fenced, [3, 1], 'a call opened while the lease is still not renewed is cut too');
  } finally {
    fence.stop();
  }
});

test('a lease renewed just before the fence (Redis back) cuts nothing', async () => {
  const open = { open: 2 };
  const { clock, fenced, fence } = fenceOn(open);
  try {
    clock.nowMs = 6_900;
    await sleep(20);
    clock.renewedAtMs = 6_950;
    clock.nowMs = 9_000;
    await sleep(30);
    assert.deepEqual(fenced, []);
    assert.equal(open.open, 2, 'the calls stay open');
  } finally {
    fence.stop();
  }
});
