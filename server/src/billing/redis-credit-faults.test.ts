import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { Redis } from 'ioredis';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-databases.ts';
import { testRedisUrl } from '../../test/support/test-redis.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { userLedgerAccount } from '../db/ledger.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { JournaledCharge } from '../db/settlement-journal.ts';
import { checkpointErrorCode } from '../db/supersede-checkpoint-charge.ts';
import { recordCharges } from '../db/usage-records.ts';
import { listBalanceSnapshots, insertUser } from '../db/users.ts';
import { buildUsageRecord } from '../../test/support/usage-record-builder.ts';
import { creditWelcomeBalance } from './credit-welcome-balance.ts';
import { createRedisCreditHolds } from './redis-credit-holds.ts';

let testDatabase: TestDatabase;
let handle: DatabaseHandle;
let redis: Redis;
let keyPrefix = '';
let userCount = 0;

before(async () => {
  testDatabase = await createTestDatabase('sqlite');
  handle = openDatabase(testDatabase.config);
  await migrateToLatest(handle.db);
  redis = new Redis(testRedisUrl());
});
after(async () => {
  await loseEverything();
  await redis.quit();
  await handle.close();
  await testDatabase.drop();
});

/** What a Redis restart without persistence does to the gateway's keys (every key of this test's prefix goes). */
async function loseEverything(): Promise<void> {
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
}

async function newUser(balanceMicros: number): Promise<string> {
  userCount += 1;
  const userId = `usr_fault_${userCount}`;
  await insertUser(handle.db, {
    id: userId,
    email: `${userId}@example.com`,
    password_hash: 'x',
    role: 'user',
    created_at: 1,
  });
  const credit = { userId, amountMicros: balanceMicros, transactionId: `ltx_${userId}`, nowMs: 1 };
  await handle.db.transaction().execute((trx) => creditWelcomeBalance(trx, credit));
  return userId;
}

const node = (nodeId: string) =>
  createRedisCreditHolds({ db: handle.db, redis, keyPrefix, nodeId, leaseMs: 2_000, recoveryWindowMs: 300 });

/** A call's charge as the settlement journal holds it. */
function usageCharge(userId: string, requestId: string, costMicros: number): JournaledCharge {
  const usage = buildUsageRecord({ user_id: userId, request_id: requestId, cost_micros: costMicros, created_at: 2 });
  const entries = [
    { account: userLedgerAccount(userId), amountMicros: -costMicros },
    { account: 'system:revenue', amountMicros: costMicros },
  ];
  const ledger = { id: `ltx_${requestId}`, idempotencyKey: `usage:${requestId}`, kind: 'usage' as const };
  return { ledger: { ...ledger, reason: 'chat.completions gpt-4o', createdAt: 2, entries }, usage };
}

test('Redis losing its state while two nodes hold most of a balance does not let a third node spend it again', async () => {
  keyPrefix = `fault-${randomBytes(4).toString('hex')}:`;
  const userId = await newUser(2_000_000);
  const first = node('node_one');
  const second = node('node_two');
  const firstHold = await first.reserve({ userId, holdId: 'req_a', desiredMicros: 800_000, minimumMicros: 1 });
  const secondHold = await second.reserve({ userId, holdId: 'req_b', desiredMicros: 800_000, minimumMicros: 1 });
  assert.equal(firstHold?.heldMicros, 800_000);
  assert.equal(secondHold?.heldMicros, 800_000);
  assert.ok(firstHold && secondHold);
  await first.capture(firstHold, 300_000, usageCharge(userId, 'req_a', 300_000));

  await loseEverything();
  // A node that knew nothing of the account before asks for all of it while the others have not yet noticed.
  const third = node('node_three');
  const asking = third.reserve({ userId, holdId: 'req_c', desiredMicros: 2_000_000, minimumMicros: 1 });
  await sleep(50);
  await Promise.all([first.heartbeat(), second.heartbeat()]);
  const thirdHold = await asking;
  assert.equal(
    thirdHold?.heldMicros,
    2_000_000 - 300_000 - 800_000,
    'the pending charge and the open hold still count',
  );
  assert.equal(await third.availableMicros(userId), 0);

  await second.capture(secondHold, 800_000, usageCharge(userId, 'req_b', 800_000));
  assert.equal(await third.availableMicros(userId), 0, 'a capture after the loss moves the hold, never frees it');
});

test('a flush without any heartbeat: the next command of each node re-posts what it holds', async () => {
  keyPrefix = `fault-${randomBytes(4).toString('hex')}:`;
  const userId = await newUser(1_000_000);
  const first = node('node_one');
  const held = await first.reserve({ userId, holdId: 'req_a', desiredMicros: 600_000, minimumMicros: 1 });
  assert.ok(held);
  await loseEverything();
  const other = await first.reserve({ userId, holdId: 'req_b', desiredMicros: 1_000_000, minimumMicros: 1 });
  assert.equal(other?.heldMicros, 400_000, 'the hold taken before the loss was re-posted before the new one');
  assert.ok(other);
  await first.release(held);
  await first.release(other);
  assert.equal(await first.availableMicros(userId), 1_000_000, 'releasing after the loss gives back exactly once');
});

test('a node whose lease ran out is reaped by another: its charges are written once, its holds freed', async () => {
  keyPrefix = `fault-${randomBytes(4).toString('hex')}:`;
  const userId = await newUser(1_000_000);
  const dead = node('node_dead');
  const survivor = node('node_alive');
  const open = await dead.reserve({ userId, holdId: 'req_open', desiredMicros: 500_000, minimumMicros: 1 });
  const done = await dead.reserve({ userId, holdId: 'req_done', desiredMicros: 200_000, minimumMicros: 1 });
  assert.ok(open && done);
  // Journaled on its own disk and captured, then the process died before its group commit.
  await dead.capture(done, 150_000, usageCharge(userId, 'req_done', 150_000));
  assert.equal(await survivor.availableMicros(userId), 1_000_000 - 500_000 - 150_000);

  assert.deepEqual(await survivor.heartbeat(), [], 'a node inside its lease is left alone');
  await sleep(2_100);
  assert.deepEqual(await survivor.heartbeat(), ['node_dead']);
  const [balance] = await listBalanceSnapshots(handle.db, [userId]);
  assert.equal(balance?.balanceMicros, 850_000, 'the charge the dead node left reached the database');
  assert.equal(await survivor.availableMicros(userId), 850_000, 'its hold is free and its charge counted once');
  assert.deepEqual(await survivor.heartbeat(), [], 'a reaped node is reaped once');

  // The same charge written again by the dead node's own journal later changes nothing (idempotent by request id).
  const again = await recordCharges(handle.db, [usageCharge(userId, 'req_done', 150_000)]);
  assert.deepEqual(again.isNew, [false]);
});

test('a node that was only cut off and comes back after being reaped re-posts its open holds', async () => {
  keyPrefix = `fault-${randomBytes(4).toString('hex')}:`;
  const userId = await newUser(1_000_000);
  const slow = node('node_slow');
  const survivor = node('node_alive');
  const open = await slow.reserve({ userId, holdId: 'req_open', desiredMicros: 700_000, minimumMicros: 1 });
  assert.ok(open);
  await survivor.heartbeat();
  await sleep(2_100);
  assert.deepEqual(await survivor.heartbeat(), ['node_slow']);
  assert.equal(await survivor.availableMicros(userId), 1_000_000, 'reaped: its hold is free for now');
  await slow.heartbeat();
  assert.equal(await survivor.availableMicros(userId), 300_000, 'back: its call still in flight holds again');
  await slow.release(open);
  assert.equal(await survivor.availableMicros(userId), 1_000_000);
});

test('a failover to a replica that missed the last holds: the node notices at its next heartbeat and re-posts', async () => {
  keyPrefix = `fault-${randomBytes(4).toString('hex')}:`;
  const userId = await newUser(1_000_000);
  const first = node('node_one');
  const older = await first.reserve({ userId, holdId: 'req_old', desiredMicros: 200_000, minimumMicros: 1 });
  const lost = await first.reserve({ userId, holdId: 'req_lost', desiredMicros: 500_000, minimumMicros: 1 });
  assert.ok(older && lost);
  // The replica never received the second reservation: same generation, one hold and its amount missing.
  await redis.hdel(`${keyPrefix}node:node_one:holds`, lost.holdId);
  await redis.hincrby(`${keyPrefix}credit:${userId}`, 'h', -500_000);
  const other = node('node_two');
  assert.equal(await other.availableMicros(userId), 800_000, 'the lost hold is not counted yet');
  await first.heartbeat();
  assert.equal(await other.availableMicros(userId), 300_000, 'after one heartbeat both holds count again');
  await first.release(lost);
  await first.release(older);
  assert.equal(await other.availableMicros(userId), 1_000_000);
});

test('a capture Redis cannot hear still stands, and its pending amount leaves once the charge is in the database', async () => {
  keyPrefix = `fault-${randomBytes(4).toString('hex')}:`;
  const userId = await newUser(1_000_000);
  const client = new Redis(testRedisUrl());
  const cutOff = createRedisCreditHolds({
    db: handle.db,
    redis: client,
    keyPrefix,
    nodeId: 'node_cut',
    leaseMs: 2_000,
  });
  const hold = await cutOff.reserve({ userId, holdId: 'req_cut', desiredMicros: 400_000, minimumMicros: 1 });
  assert.ok(hold);
  // The link drops: every command now fails with "Connection is closed.", as when Redis is unreachable.
  client.disconnect();
  assert.equal(await cutOff.capture(hold, 250_000, usageCharge(userId, 'req_cut', 250_000)), true);
  await client.connect();
  await cutOff.heartbeat();
  const account = `${keyPrefix}credit:${userId}`;
  assert.deepEqual(await redis.hmget(account, 'h', 'p'), ['0', '250000'], 'the heartbeat re-posted the capture');
  await cutOff.applyCommitted([{ userId, capturedMicros: 250_000, holdIds: [hold.holdId], balance: undefined }]);
  assert.equal(await redis.hget(account, 'p'), '0', 'nothing stays pending once the charge is written');
  client.disconnect();
});

test('a node cut off past its lease with a stream open: the final charge supersedes the reaper checkpoint, once, and every node sees it (issue 19)', async (t) => {
  keyPrefix = `fault-${randomBytes(4).toString('hex')}:`;
  const userId = await newUser(1_000_000);
  const client = new Redis(testRedisUrl());
  // A failed assertion must not leave the client open, which would keep the test process alive.
  t.after(() => client.disconnect());
  const cutOff = createRedisCreditHolds({
    db: handle.db,
    redis: client,
    keyPrefix,
    nodeId: 'node_cut',
    leaseMs: 2_000,
    recoveryWindowMs: 300,
  });
  const survivor = node('node_alive');
  const hold = await cutOff.reserve({ userId, holdId: 'req_long', desiredMicros: 500_000, minimumMicros: 1 });
  assert.ok(hold);
  const checkpoint = usageCharge(userId, 'req_long', 5_000);
  cutOff.recordDelivery?.(hold, () => ({
    ...checkpoint,
    usage: { ...checkpoint.usage, status: 'interrupted', error_code: checkpointErrorCode },
  }));
  await sleep(400);
  client.disconnect();
  await survivor.heartbeat();
  await sleep(2_100);
  assert.deepEqual(await survivor.heartbeat(), ['node_cut'], 'the cut-off node is reaped');
  assert.equal(await survivor.availableMicros(userId), 995_000, 'the reaper billed the checkpoint and freed the hold');

  // The stream ends on the cut-off node: journaled, captured in memory, written to the database (which it reaches).
  const final = usageCharge(userId, 'req_long', 32_000);
  assert.equal(await cutOff.capture(hold, 32_000, final), true);
  const outcome = await recordCharges(handle.db, [final]);
  assert.deepEqual(outcome.isNew, [true], 'the final charge supersedes the checkpoint one');
  const committed = { userId, capturedMicros: 32_000, holdIds: [hold.holdId], balance: outcome.balances.at(-1) };
  await assert.rejects(cutOff.applyCommitted([committed]), 'Redis cannot hear the new balance yet');
  const [balance] = await listBalanceSnapshots(handle.db, [userId]);
  assert.equal(balance?.balanceMicros, 968_000, 'the call paid its final cost in total');

  await client.connect();
  await cutOff.heartbeat();
  assert.equal(await survivor.availableMicros(userId), 968_000, 'back: the balance it wrote meanwhile counts in Redis');
  assert.deepEqual(
    (await recordCharges(handle.db, [final])).isNew,
    [false],
    "the reaper's copy or a replay: no change",
  );
  assert.equal(await survivor.availableMicros(userId), 968_000);
});

test('a fenced node: its lease time stops at the last renewal Redis confirmed, and its reaper counts the final charge it wrote meanwhile (issue 19)', async (t) => {
  keyPrefix = `fault-${randomBytes(4).toString('hex')}:`;
  const userId = await newUser(1_000_000);
  const client = new Redis(testRedisUrl());
  t.after(() => client.disconnect());
  let nowMs = 1_000;
  const cutOff = createRedisCreditHolds({
    db: handle.db,
    redis: client,
    keyPrefix,
    nodeId: 'node_fenced',
    leaseMs: 2_000,
    monotonicNowMs: () => nowMs,
  });
  const survivor = node('node_alive');
  // A non-streamed call: no delivery checkpoint names its account to the reaper.
  const hold = await cutOff.reserve({ userId, holdId: 'req_fenced', desiredMicros: 500_000, minimumMicros: 1 });
  assert.ok(hold);
  nowMs = 2_000;
  await cutOff.heartbeat();
  assert.equal(cutOff.leaseRenewedAtMs(), 2_000, 'the renewal counts from when it was sent');
  client.disconnect();
  nowMs = 3_000;
  await cutOff.heartbeat().catch(() => undefined);
  assert.equal(cutOff.leaseRenewedAtMs(), 2_000, 'a renewal Redis did not confirm does not count');

  // The fence ended the call: its final charge reaches the database, which the node still reaches.
  const final = usageCharge(userId, 'req_fenced', 40_000);
  assert.equal(await cutOff.capture(hold, 40_000, final), true);
  assert.deepEqual((await recordCharges(handle.db, [final])).isNew, [true]);
  await sleep(2_100);
  assert.deepEqual(await survivor.heartbeat(), ['node_fenced'], 'the cut-off node is reaped');
  assert.equal(await survivor.availableMicros(userId), 960_000, 'the freed hold is not spendable twice');
});
