import assert from 'node:assert/strict';
import { createServer, connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import {
  cappedGrowthPercent,
  countOpenSockets,
  manySocketsThreshold,
  watchOldGenerationGrowth,
} from './watch-old-generation-growth.ts';

describe('watchOldGenerationGrowth', () => {
  it('caps the growth with a full collection once many sockets are open, and gives V8 its factor back after', () => {
    let openSockets = 0;
    const flags: string[] = [];
    let collections = 0;
    const check = watchOldGenerationGrowth({
      countOpenSockets: () => openSockets,
      setV8Flags: (value) => flags.push(value),
      collectGarbage: () => {
        collections += 1;
      },
    });
    openSockets = manySocketsThreshold - 1;
    check();
    assert.deepEqual(flags, [], 'few connections: V8 keeps its own factor, nothing is set');
    openSockets = manySocketsThreshold;
    check();
    check();
    assert.deepEqual(flags, [`--heap-growing-percent=${cappedGrowthPercent}`], 'set once, not at every check');
    assert.equal(collections, 1);
    openSockets = 10;
    check();
    assert.deepEqual(flags.at(-1), '--heap-growing-percent=0');
    assert.equal(collections, 1, 'no collection when the cap is lifted');
  });
});

describe('countOpenSockets', () => {
  it('counts the TCP sockets this process has open, both ends of a loopback connection', async () => {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    assert.ok(address !== null && typeof address === 'object');
    const before = countOpenSockets();
    const accepted = once(server, 'connection') as Promise<[Socket]>;
    const client = connect(address.port, '127.0.0.1');
    await once(client, 'connect');
    const [serverSide] = await accepted;
    assert.equal(countOpenSockets(), before + 2);
    client.destroy();
    serverSide.destroy();
    server.close();
    await once(server, 'close');
  });
});
