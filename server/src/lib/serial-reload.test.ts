import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSerialReload } from './serial-reload.ts';

/** A load whose database read and whose return are two separate steps the test releases by hand. */
function controlledLoads(source: { version: number }) {
  const started: Array<{ readVersion: number; finish: (error?: Error) => void }> = [];
  let applied = 0;
  const load = () =>
    new Promise<void>((resolve, reject) => {
      const readVersion = source.version;
      started.push({
        readVersion,
        finish: (error) => {
          if (error) return reject(error);
          applied = readVersion;
          resolve();
        },
      });
    });
  return { started, load, applied: () => applied };
}

test('a load that read earlier never finishes after one that read later; callers in the meantime share one load', async () => {
  const source = { version: 1 };
  const loads = controlledLoads(source);
  const reload = createSerialReload(loads.load);
  const watcher = reload();
  source.version = 2;
  const afterChange = reload();
  const another = reload();
  assert.equal(loads.started.length, 1, 'the second load waits for the first');
  loads.started[0]?.finish();
  await watcher;
  await Promise.resolve();
  await Promise.resolve();
  assert.equal(loads.started.length, 2, 'one more load for both waiting callers');
  assert.equal(loads.started[1]?.readVersion, 2);
  loads.started[1]?.finish();
  await Promise.all([afterChange, another]);
  assert.equal(loads.applied(), 2, 'the change made before the call is what the cache holds');
  assert.equal(loads.started.length, 2);
});

test('a failed load rejects its callers and does not stop the next one', async () => {
  const source = { version: 1 };
  const loads = controlledLoads(source);
  const reload = createSerialReload(loads.load);
  const failing = reload();
  source.version = 3;
  const waiting = reload();
  loads.started[0]?.finish(new Error('database down'));
  await assert.rejects(failing, /database down/);
  await new Promise((resolve) => setImmediate(resolve));
  loads.started[1]?.finish();
  await waiting;
  assert.equal(loads.applied(), 3);
  const idle = reload();
  assert.equal(loads.started.length, 3, 'with nothing running, a call loads at once');
  loads.started[2]?.finish();
  await idle;
});
