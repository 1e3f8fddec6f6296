import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { settlesWithin } from './settles-within.ts';

test('settlesWithin: true for work that resolves or rejects in time, false for work still running', async () => {
  assert.equal(await settlesWithin(Promise.resolve(1), 50), true);
  assert.equal(await settlesWithin(Promise.reject(new Error('refused')), 50), true);
  const started = performance.now();
  assert.equal(await settlesWithin(sleep(1_000), 50), false);
  assert.ok(performance.now() - started < 500, 'it stopped waiting at its bound');
});
