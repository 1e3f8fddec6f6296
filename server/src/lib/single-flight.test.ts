import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSingleFlight } from './single-flight.ts';

test('calls for one key in flight share one run; the key is free again once it settles, even after a failure', async () => {
  const once = createSingleFlight<number>();
  let runs = 0;
  const run = async () => {
    runs += 1;
    const thisRun = runs;
    await Promise.resolve();
    return thisRun;
  };
  assert.deepEqual(await Promise.all([once('a', run), once('a', run), once('b', run)]), [1, 1, 2]);
  assert.equal(await once('a', run), 3, 'a settled run is not reused');
  await assert.rejects(
    once('c', () => Promise.reject(new Error('down'))),
    /down/,
  );
  assert.equal(await once('c', run), 4, 'a failed run frees its key');
});
