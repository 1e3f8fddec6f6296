import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, createServer, type AddressInfo } from 'node:net';
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

test('a renewal answer received while the event loop was busy counts before the cut', async () => {
  const open = { open: 4 };
  const { clock, fenced, fence } = fenceOn(open);
  // The renewal's answer arrives on a socket, as Redis's does: read in the event loop's I/O phase.
  const server = createServer((socket) => socket.on('data', () => void (clock.renewedAtMs = 6_500)));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const accepted = once(server, 'connection');
  const client = connect(port, '127.0.0.1');
  await Promise.all([once(client, 'connect'), accepted]);
  try {
    clock.nowMs = 6_000;
    await sleep(20);
    // From the end of a turn (the check phase), so the next turn starts with the timers, then reads the socket: busy
    // past the fence's interval with the answer already in the kernel, the fence's timer fires before it is read.
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        client.write('renewed');
        clock.nowMs = 9_000;
        const busyUntil = performance.now() + 50;
        while (performance.now() < busyUntil);
        resolve();
      }),
    );
    await sleep(30);
    assert.equal(clock.renewedAtMs, 6_500, 'the answer was read');
    assert.deepEqual(fenced, [], 'and nothing was cut for the timer being late');
    assert.equal(open.open, 4);
  } finally {
    fence.stop();
    client.destroy();
    server.close();
  }
});
