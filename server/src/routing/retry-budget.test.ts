import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRetryBudget } from './retry-budget.ts';

const retriesGranted = (budget: ReturnType<typeof createRetryBudget>, attempts: number, nowMs: number) => {
  let granted = 0;
  for (let index = 0; index < attempts; index += 1) if (budget.tryRetry(nowMs)) granted += 1;
  return granted;
};

describe('retry budget', () => {
  it('allows the floor plus the ratio of requests within the window, then refuses', () => {
    const budget = createRetryBudget({ ratio: 0.2, floorPerWindow: 3, windowMs: 10_000 });
    for (let index = 0; index < 50; index += 1) budget.recordRequest(1_000);
    assert.equal(retriesGranted(budget, 100, 1_000), 3 + 10);
  });

  it('gives the budget back as old requests and retries slide out of the window', () => {
    const budget = createRetryBudget({ ratio: 0.5, floorPerWindow: 0, windowMs: 10_000 });
    for (let index = 0; index < 10; index += 1) budget.recordRequest(0);
    assert.equal(retriesGranted(budget, 20, 0), 5);
    assert.equal(retriesGranted(budget, 20, 9_000), 0, 'still inside the window');
    for (let index = 0; index < 4; index += 1) budget.recordRequest(15_000);
    assert.equal(retriesGranted(budget, 20, 15_000), 2, 'only the new requests count');
  });

  it('always allows the floor on a quiet node', () => {
    const budget = createRetryBudget({ ratio: 0.2, floorPerWindow: 2, windowMs: 1_000 });
    assert.equal(retriesGranted(budget, 5, 0), 2);
    assert.equal(retriesGranted(budget, 5, 5_000), 2);
  });
});
