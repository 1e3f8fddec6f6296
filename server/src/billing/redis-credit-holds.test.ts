import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Redis } from 'ioredis';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-databases.ts';
import { testRedisUrl } from '../../test/support/test-redis.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { postLedgerTransaction, userLedgerAccount } from '../db/ledger.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { listBalanceSnapshots, insertUser } from '../db/users.ts';
import { createRedisCreditHolds, type RedisCreditHolds } from './redis-credit-holds.ts';

let testDatabase: TestDatabase;
let handle: DatabaseHandle;
let redis: Redis;
const keyPrefix = `test-${randomBytes(4).toString('hex')}:`;
let userCount = 0;

before(async () => {
  testDatabase = await createTestDatabase('sqlite');
  handle = openDatabase(testDatabase.config);
  await migrateToLatest(handle.db);
  redis = new Redis(testRedisUrl());
});
after(async () => {
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
  await handle.close();
  await testDatabase.drop();
});

/** A user with a balance written through the ledger, as every balance is. */
async function newUser(balanceMicros: number): Promise<string> {
  userCount += 1;
  const userId = `usr_redis_${userCount}`;
  await insertUser(handle.db, {
    id: userId,
    email: `${userId}@example.com`,
    password_hash: 'x',
    role: 'user',
    created_at: 1,
  });
  await postLedgerTransaction(handle.db, {
    id: `ltx_${userId}`,
    idempotencyKey: `welcome:${userId}`,
    kind: 'welcome',
    reason: 'test',
    createdAt: 1,
    entries: [
      { account: userLedgerAccount(userId), amountMicros: balanceMicros },
      { account: 'system:welcome', amountMicros: -balanceMicros },
    ],
  });
  return userId;
}

const node = (nodeId: string): RedisCreditHolds => createRedisCreditHolds({ db: handle.db, redis, keyPrefix, nodeId });

test('two reservations under one caller id never share a hold, and a hold is released once', async () => {
  const holds = node('node_a');
  const alice = await newUser(10_000);
  const bob = await newUser(10_000);
  const aliceHold = await holds.reserve({
    userId: alice,
    holdId: 'subscription:p1',
    desiredMicros: 8_000,
    minimumMicros: 1,
  });
  const bobHold = await holds.reserve({
    userId: bob,
    holdId: 'subscription:p1',
    desiredMicros: 3_000,
    minimumMicros: 1,
  });
  assert.ok(aliceHold && bobHold);
  assert.notEqual(aliceHold.holdId, bobHold.holdId);
  await holds.release(bobHold);
  await holds.release(bobHold);
  assert.equal(await holds.availableMicros(alice), 2_000, 'releasing Bob’s hold never frees Alice’s credit');
  assert.equal(await holds.availableMicros(bob), 10_000, 'a second release changes nothing');
  assert.equal(await holds.capture(bobHold, 500), false, 'a released hold cannot be captured');
  assert.equal(await holds.availableMicros(bob), 10_000);
});

test('two nodes take from one balance: neither can hold what the other holds', async () => {
  const userId = await newUser(1_000);
  const [first, second] = await Promise.all([
    node('node_b').reserve({ userId, holdId: 'req_1', desiredMicros: 800, minimumMicros: 600 }),
    node('node_c').reserve({ userId, holdId: 'req_2', desiredMicros: 800, minimumMicros: 600 }),
  ]);
  assert.equal([first, second].filter((hold) => hold !== undefined).length, 1, 'only one of them fits');
});

test('a capture is pending until its commit, and the commit’s newer balance replaces it', async () => {
  const holds = node('node_d');
  const userId = await newUser(5_000);
  const hold = await holds.reserve({ userId, holdId: 'req_p', desiredMicros: 2_000, minimumMicros: 1 });
  assert.ok(hold);
  assert.equal(await holds.capture(hold, 700), true);
  assert.equal(await holds.availableMicros(userId), 4_300, 'pending counts at once');
  const [before] = await listBalanceSnapshots(handle.db, [userId]);
  assert.ok(before);
  await holds.applyCommitted([
    { userId, capturedMicros: 700, balance: { userId, balanceMicros: 4_300, version: before.version + 1 } },
  ]);
  assert.equal(await holds.availableMicros(userId), 4_300);
  await holds.applyCommitted([{ userId, capturedMicros: 0, balance: before }]);
  assert.equal(await holds.availableMicros(userId), 4_300, 'an older balance never replaces a newer one');
});

test('a restarted node reloads balances its old life charged, then frees its holds and pending charges', async () => {
  const userId = await newUser(10_000);
  const oldLife = node('node_e');
  const held = await oldLife.reserve({ userId, holdId: 'req_dead_1', desiredMicros: 3_000, minimumMicros: 1 });
  const charged = await oldLife.reserve({ userId, holdId: 'req_dead_2', desiredMicros: 2_000, minimumMicros: 1 });
  assert.ok(held && charged);
  await oldLife.capture(charged, 1_500);
  // The charge reached the database, then the process died before Redis heard of the commit.
  await postLedgerTransaction(handle.db, {
    id: 'ltx_dead_2',
    idempotencyKey: 'usage:req_dead_2',
    kind: 'usage',
    reason: 'test',
    createdAt: 2,
    entries: [
      { account: userLedgerAccount(userId), amountMicros: -1_500 },
      { account: 'system:revenue', amountMicros: 1_500 },
    ],
  });
  assert.equal(await oldLife.availableMicros(userId), 5_500, 'the dead life still holds and owes');
  const released = await node('node_e').forgetPreviousLife([]);
  assert.equal(released, 1);
  assert.equal(await oldLife.availableMicros(userId), 8_500, 'the charge counts once, from the database');
});

test('an account Redis lost is reloaded from the database, never driven negative by old holds', async () => {
  const holds = node('node_f');
  const userId = await newUser(4_000);
  const hold = await holds.reserve({ userId, holdId: 'req_lost', desiredMicros: 3_000, minimumMicros: 1 });
  assert.ok(hold);
  await redis.del(`${keyPrefix}credit:${userId}`);
  await node('node_f').forgetPreviousLife([]);
  await holds.release(hold);
  assert.equal(await holds.availableMicros(userId), 4_000);
  const again = await holds.reserve({ userId, holdId: 'req_after', desiredMicros: 9_000, minimumMicros: 1 });
  assert.equal(again?.heldMicros, 4_000, 'no phantom credit from a hold taken back twice');
});

test('a burst of reservations for an account Redis lacks reads its balance from the database once', async () => {
  const userId = await newUser(1_000_000);
  let balanceReads = 0;
  const countingDb = handle.db.withPlugin({
    transformQuery: (args) => {
      if (args.node.kind === 'SelectQueryNode') balanceReads += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  const holds = createRedisCreditHolds({ db: countingDb, redis, keyPrefix, nodeId: 'burst' });
  const reserved = await Promise.all(
    Array.from({ length: 200 }, (_, index) =>
      holds.reserve({ userId, holdId: `burst-${index}`, desiredMicros: 1_000, minimumMicros: 1_000 }),
    ),
  );
  assert.equal(reserved.filter((hold) => hold !== undefined).length, 200, 'every reservation got its hold');
  assert.equal(balanceReads, 1, 'one read of the balance, not one per call');
  assert.equal(await holds.availableMicros(userId), 1_000_000 - 200 * 1_000);
  assert.equal(balanceReads, 1, 'a loaded account is read from Redis');
});

test('a lease renewal on its own connection is confirmed while the shared connection waits on a slow command', async () => {
  const leaseRedis = new Redis(testRedisUrl());
  const shared = new Redis(testRedisUrl());
  try {
    let nowMs = 1_000;
    const renewalTimes = async (lease: Redis | undefined, nodeId: string) => {
      const holds = createRedisCreditHolds({
        db: handle.db,
        redis: shared,
        ...(lease ? { leaseRedis: lease } : {}),
        keyPrefix,
        nodeId,
        monotonicNowMs: () => nowMs,
      });
      await holds.renewLease();
      // The shared connection is busy for a second (a blocking pop), as it is behind thousands of checkpoints at load.
      const busy = shared.blpop(`${keyPrefix}nothing`, 1);
      nowMs += 5_000;
      const startedMs = performance.now();
      await holds.renewLease();
      const tookMs = performance.now() - startedMs;
      await busy;
      return { tookMs, renewedAtMs: holds.leaseRenewedAtMs() };
    };
    const own = await renewalTimes(leaseRedis, 'node_own_lease');
    assert.ok(own.tookMs < 500, `renewed without waiting for the shared connection (${Math.round(own.tookMs)} ms)`);
    assert.equal(own.renewedAtMs, nowMs, 'and counted as renewed when it was sent');
    const sharedOnly = await renewalTimes(undefined, 'node_shared_lease');
    assert.ok(sharedOnly.tookMs >= 900, `on the shared connection it waits (${Math.round(sharedOnly.tookMs)} ms)`);
  } finally {
    await leaseRedis.quit();
    await shared.quit();
  }
});
