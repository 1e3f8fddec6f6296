import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Redis, type Command } from 'ioredis';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-databases.ts';
import { testRedisUrl } from '../../test/support/test-redis.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { insertUser } from '../db/users.ts';
import { creditWelcomeBalance } from './credit-welcome-balance.ts';
import { creditNodeKeys } from './reap-credit-node.ts';
import { createRedisCreditHolds } from './redis-credit-holds.ts';

let testDatabase: TestDatabase;
let handle: DatabaseHandle;
let redis: Redis;
const keyPrefix = `test-${randomBytes(4).toString('hex')}:`;
let userCount = 0;

before(async () => {
  testDatabase = await createTestDatabase('sqlite');
  handle = openDatabase(testDatabase.config);
  await migrateToLatest(handle.db);
  // Auto-pipelining as the gateway connects (`connect-redis.ts`): the commands of one turn leave in one write.
  redis = new Redis(testRedisUrl(), { enableAutoPipelining: true });
});
after(async () => {
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
  await handle.close();
  await testDatabase.drop();
});

async function newUser(balanceMicros: number): Promise<string> {
  userCount += 1;
  const userId = `usr_sha_${userCount}`;
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

/** The names of the commands the client is given from now on, in order. */
function recordCommands(client: Redis): { names: string[]; stop: () => void } {
  const names: string[] = [];
  const send = client.sendCommand.bind(client);
  client.sendCommand = (command: Command, stream?: Parameters<Redis['sendCommand']>[1]) => {
    names.push(command.name);
    return send(command, stream);
  };
  return { names, stop: () => delete (client as Partial<Pick<Redis, 'sendCommand'>>).sendCommand };
}

/** What Redis shows of an account: held, pending, and the holds the node has registered. */
async function redisShows(userId: string, nodeId: string) {
  const [held, pending] = await redis.hmget(`${keyPrefix}credit:${userId}`, 'h', 'p');
  const registeredHolds = await redis.hlen(creditNodeKeys(keyPrefix, nodeId).holds);
  return { held: Number(held ?? 0), pending: Number(pending ?? 0), registeredHolds };
}

test('the per-call credit scripts go by SHA once Redis has run their text', async () => {
  const userId = await newUser(10_000_000);
  const holds = createRedisCreditHolds({ db: handle.db, redis, keyPrefix, nodeId: 'node_sha' });
  const reserve = (holdId: string) => holds.reserve({ userId, holdId, desiredMicros: 1_000, minimumMicros: 1 });
  const recorded = recordCommands(redis);
  const first = await reserve('req_sha_1');
  await holds.capture(first!, 400);
  await holds.release((await reserve('req_sha_2'))!);
  const firstUses = recorded.names.filter((name) => name.startsWith('eval'));
  assert.deepEqual(firstUses.slice(-3), ['eval', 'evalsha', 'eval'], 'capture and release first go with their text');
  recorded.names.length = 0;
  await holds.capture((await reserve('req_sha_3'))!, 400);
  await holds.release((await reserve('req_sha_4'))!);
  recorded.stop();
  assert.deepEqual(recorded.names, ['evalsha', 'evalsha', 'evalsha', 'evalsha'], 'then each goes by its SHA');
  assert.deepEqual(await redisShows(userId, 'node_sha'), { held: 0, pending: 800, registeredHolds: 0 });
});

test('a script cache flushed under calls in flight: each refused command is sent again once, and Redis ends as memory', async () => {
  const balanceMicros = 10_000_000;
  const userId = await newUser(balanceMicros);
  const nodeId = 'node_flush';
  const holds = createRedisCreditHolds({ db: handle.db, redis, keyPrefix, nodeId, recoveryWindowMs: 100 });
  const warm = await holds.reserve({ userId, holdId: 'req_flush_warm', desiredMicros: 1_000, minimumMicros: 1 });
  assert.ok(warm);
  await holds.capture(warm, 500);
  const recorded = recordCommands(redis);
  // `SCRIPT` is not auto-pipelined: it is written at once, ahead of the reservations' write, which it empties.
  const flushed = redis.script('FLUSH');
  const reserved = await Promise.all(
    Array.from({ length: 20 }, (_, index) =>
      holds.reserve({ userId, holdId: `req_flush_${index}`, desiredMicros: 10_000, minimumMicros: 1 }),
    ),
  );
  await flushed;
  assert.ok(reserved.every((hold) => hold?.heldMicros === 10_000));
  assert.equal(recorded.names.filter((name) => name === 'eval').length, 20, 'each refused reservation sent again once');
  assert.deepEqual(await redisShows(userId, nodeId), { held: 200_000, pending: 500, registeredHolds: 20 });

  // Captures and releases behind a second flush.
  const flushedAgain = redis.script('FLUSH');
  await Promise.all(
    reserved.map((hold, index) => (index % 2 === 0 ? holds.capture(hold!, 2_000) : holds.release(hold!))),
  );
  await flushedAgain;
  recorded.stop();
  const expected = { held: 0, pending: 500 + 10 * 2_000, registeredHolds: 0 };
  assert.deepEqual(await redisShows(userId, nodeId), expected);
  assert.equal(await holds.availableMicros(userId), balanceMicros - expected.pending);
  // The NOSCRIPTs marked the node out of sync: its heartbeat re-posts memory, which changes nothing here.
  await holds.heartbeat();
  assert.deepEqual(await redisShows(userId, nodeId), expected);
  assert.equal(await holds.availableMicros(userId), balanceMicros - expected.pending);
});

test('an apply waits for the capture of its charge that a NOSCRIPT sends again, so Redis never shows more credit', async () => {
  const balanceMicros = 10_000_000;
  const userId = await newUser(balanceMicros);
  const nodeId = 'node_apply';
  const holds = createRedisCreditHolds({ db: handle.db, redis, keyPrefix, nodeId, recoveryWindowMs: 100 });
  const committed = (holdId: string, capturedMicros: number) => [
    { userId, capturedMicros, balance: undefined, holdIds: [holdId] },
  ];
  // A first call loads the reservation and capture scripts on this node, so the next capture goes by SHA.
  const warm = await holds.reserve({ userId, holdId: 'req_apply_warm', desiredMicros: 1_000, minimumMicros: 1 });
  await holds.capture(warm!, 100);
  await holds.applyCommitted(committed(warm!.holdId, 100));
  const hold = await holds.reserve({ userId, holdId: 'req_apply', desiredMicros: 5_000, minimumMicros: 1 });
  // The capture is refused (NOSCRIPT) and sent again; the apply of its charge is asked for before that answer.
  const flushed = redis.script('FLUSH');
  const captured = holds.capture(hold!, 3_000);
  const applied = holds.applyCommitted(committed(hold!.holdId, 3_000));
  await Promise.all([flushed, captured, applied]);
  // The heartbeat re-registers (the NOSCRIPT marked the node out of sync): it subtracts the node's pending record.
  await holds.heartbeat();
  assert.deepEqual(await redisShows(userId, nodeId), { held: 0, pending: 0, registeredHolds: 0 });
  assert.equal(await holds.availableMicros(userId), balanceMicros, 'the balance was not reloaded: nothing charged it');
});
