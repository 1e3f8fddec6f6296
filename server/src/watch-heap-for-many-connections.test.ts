import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer, connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import {
  countOpenSockets,
  fewConnectionsFlags,
  manyConnectionsFlags,
  manySocketsThreshold,
  watchHeapForManyConnections,
} from './watch-heap-for-many-connections.ts';

const modulePath = new URL('./watch-heap-for-many-connections.ts', import.meta.url).href;

describe('watchHeapForManyConnections', () => {
  it('holds the heap small with a collection once many sockets are open, and gives V8 its sizing back after', () => {
    let openSockets = 0;
    const flags: string[] = [];
    let collections = 0;
    const check = watchHeapForManyConnections({
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
    assert.deepEqual(flags, [manyConnectionsFlags], 'set once, not at every check');
    assert.equal(collections, 1);
    openSockets = 10;
    check();
    assert.deepEqual(flags.at(-1), fewConnectionsFlags);
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

describe('the flags and collection, in V8 itself', () => {
  it('shrink the young generation and keep it small while set, and let it grow again once lifted', () => {
    // A child process: V8 flags are process-wide. It grows the young generation with surviving allocations, applies
    // the many-connections flags and the collection, allocates as much again, then lifts them and allocates again.
    const script = `
      import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
      const { exposeMemoryReducingCollection, manyConnectionsFlags, fewConnectionsFlags } = await import(process.argv[1]);
      const youngMb = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size / 1048576;
      let kept = [];
      const allocate = () => {
        let largest = 0;
        for (let index = 0; index < 2e6; index += 1) {
          const value = { index, list: [index] };
          if (index % 3 === 0) kept.push(value);
          if (kept.length > 200000) kept = [];
          if (index % 20000 === 0) largest = Math.max(largest, youngMb());
        }
        kept = [];
        return largest;
      };
      const collect = exposeMemoryReducingCollection();
      const before = allocate();
      setFlagsFromString(manyConnectionsFlags);
      collect();
      const held = allocate();
      setFlagsFromString(fewConnectionsFlags);
      const after = allocate();
      process.stdout.write(JSON.stringify({ before, held, after }));
    `;
    const output = execFileSync(
      process.execPath,
      ['--max-semi-space-size=16', '--min-semi-space-size=4', '--input-type=module', '-e', script, modulePath],
      { encoding: 'utf8' },
    );
    const { before, held, after } = JSON.parse(output) as { before: number; held: number; after: number };
    assert.equal(before, 32, 'the young generation grew to its cap: two 16 MB semi-spaces');
    // Near the minimum's 8 MB (V8 reported 10-14 MB here), never the cap: the same allocations regrow it to 32 MB
    // within one phase once V8 has its factor back (below).
    assert.ok(held < before, `held below the cap while the flags are set: ${held} MB`);
    assert.equal(after, 32, 'grown back to the cap once V8 has its sizing back');
  });
});
