import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-databases.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { systemClock } from '../lib/clock.ts';
import { cryptoIds } from '../lib/ids.ts';
import { hashApiKey } from './api-key-secret.ts';
import { loadApiKeyCache } from './api-key-cache.ts';
import { createUser } from './create-user.ts';
import { issueApiKey } from './issue-api-key.ts';
import { revokeAccountApiKey } from './revoke-account-api-key.ts';

let testDatabase: TestDatabase;
let handle: DatabaseHandle;
before(async () => {
  testDatabase = await createTestDatabase('sqlite');
  handle = openDatabase(testDatabase.config);
  await migrateToLatest(handle.db);
});
after(async () => {
  await handle.close();
  await testDatabase.drop();
});

/** The cache over a database handle that counts the key lookups it runs, with a clock the test moves. */
async function countingCache() {
  const counter = { lookups: 0 };
  const db = handle.db.withPlugin({
    transformQuery: (args) => {
      if (args.node.kind === 'SelectQueryNode') counter.lookups += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  const clock = { now: 1_000_000, nowMs: () => clock.now };
  const cache = await loadApiKeyCache(db, clock);
  counter.lookups = 0;
  return { cache, counter, clock };
}

async function issueKey(email: string): Promise<string> {
  const deps = { db: handle.db, clock: systemClock, ids: cryptoIds };
  const user = await createUser(deps, {
    email,
    password: 'correct horse battery staple',
    role: 'user',
    welcomeBalanceMicros: 0,
  });
  return (await issueApiKey(deps, { userId: user.id, name: 'test' })).key;
}

test('made-up keys: one lookup per distinct key however many ask at once, then none for a second', async () => {
  const { cache, counter, clock } = await countingCache();
  const madeUp = hashApiKey(`sk-${'x'.repeat(43)}`);
  const found = await Promise.all(Array.from({ length: 50 }, () => cache.find(madeUp)));
  assert.deepEqual(new Set(found), new Set([undefined]));
  assert.equal(counter.lookups, 1);
  assert.equal(await cache.find(madeUp), undefined);
  assert.equal(counter.lookups, 1, 'remembered as unknown');
  clock.now += 1_000;
  assert.equal(await cache.find(madeUp), undefined);
  assert.equal(counter.lookups, 2, 'asked again once the second is over');
});

test('a key made elsewhere after the load is found on a miss, and a reload forgets remembered misses', async () => {
  const { cache, counter } = await countingCache();
  const key = await issueKey('elsewhere@example.com');
  assert.equal((await cache.find(hashApiKey(key)))?.name, 'test', 'found in the database on a miss');
  assert.equal(counter.lookups, 1);
  assert.ok(await cache.find(hashApiKey(key)));
  assert.equal(counter.lookups, 1, 'then served from memory');
  const later = await countingCache();
  const laterKey = `sk-${'y'.repeat(43)}`;
  assert.equal(await later.cache.find(hashApiKey(laterKey)), undefined);
  await later.cache.reload();
  later.counter.lookups = 0;
  assert.equal(await later.cache.find(hashApiKey(laterKey)), undefined);
  assert.equal(later.counter.lookups, 1, 'after a reload an unknown key is asked for again');
});

test('a presented key is found by its secret; a revocation takes effect at once though its hash is remembered', async () => {
  const { cache, counter, clock } = await countingCache();
  const deps = { db: handle.db, clock: systemClock, ids: cryptoIds };
  const user = await createUser(deps, {
    email: 'presented@example.com',
    password: 'correct horse battery staple',
    role: 'user',
    welcomeBalanceMicros: 0,
  });
  const issued = await issueApiKey(deps, { userId: user.id, name: 'presented' });
  assert.equal((await cache.findByKey(issued.key))?.id, issued.id);
  assert.equal((await cache.findByKey(issued.key))?.id, issued.id, 'again, from the remembered hash');
  assert.equal(counter.lookups, 1, 'one database lookup: the key was made after the load');
  clock.now += 61_000;
  assert.equal((await cache.findByKey(issued.key))?.id, issued.id, 'after the hash is forgotten: hashed again');
  await revokeAccountApiKey(
    { db: handle.db, clock: systemClock, apiKeyCache: cache },
    { userId: user.id, keyId: issued.id },
  );
  assert.equal(await cache.findByKey(issued.key), undefined);
  assert.equal(await cache.findByKey(`sk-${'z'.repeat(43)}`), undefined, 'a made-up key is not found');
});
