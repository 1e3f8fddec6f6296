import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Redis } from 'ioredis';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-databases.ts';
import { testRedisUrl } from '../../test/support/test-redis.ts';
import { createRedisCreditHolds } from '../billing/redis-credit-holds.ts';
import type { CatalogModel } from '../catalog/price-list.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { postLedgerTransaction, userLedgerAccount } from '../db/ledger.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { insertUser } from '../db/users.ts';
import { RateLimitError } from '../errors/rate-limit-error.ts';
import type { AccountLimits } from '../limits/account-limits.ts';
import { createRedisConcurrencyLimiter } from '../limits/concurrency-limiter.ts';
import { createRedisRateLimiter } from '../limits/redis-rate-limiter.ts';
import { createSpendCapHolds } from '../limits/spend-cap-holds.ts';
import { createMemorySpendBudgets } from '../limits/spend-budgets.ts';
import { admitCall } from './admit-call.ts';
import type { Caller } from './authenticate.ts';
import { reserveCredits } from './reserve-credits.ts';

let testDatabase: TestDatabase;
let handle: DatabaseHandle;
let redis: Redis;
const keyPrefix = `test-${randomBytes(4).toString('hex')}:`;
const userId = 'usr_round_trips';
const model = { id: 'test-model', inputRateMicros: 2_000_000, outputRateMicros: 8_000_000, maxOutputTokens: 1_000 };
const size = { textBytes: 400, messageCount: 1, imageCount: 0, requestedMaxOutputTokens: 100 };

before(async () => {
  testDatabase = await createTestDatabase('sqlite');
  handle = openDatabase(testDatabase.config);
  await migrateToLatest(handle.db);
  await insertUser(handle.db, { id: userId, email: 'rt@example.com', password_hash: 'x', role: 'user', created_at: 1 });
  await postLedgerTransaction(handle.db, {
    id: 'ltx_round_trips',
    idempotencyKey: `welcome:${userId}`,
    kind: 'welcome',
    reason: 'test',
    createdAt: 1,
    entries: [
      { account: userLedgerAccount(userId), amountMicros: 10_000_000 },
      { account: 'system:welcome', amountMicros: -10_000_000 },
    ],
  });
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

/**
 * The Redis client, counting the event-loop turns in which it was given commands: auto-pipelining sends each turn's
 * commands in one write (at `setImmediate`), so each turn counted is one round trip.
 */
function countTurns(client: Redis): { redis: Redis; turns: () => number } {
  let turns = 0;
  let isTurnOpen = false;
  const proxy = new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (!['eval', 'evalsha', 'zrem', 'hmget', 'get', 'pipeline'].includes(String(property))) {
        return method.bind(target);
      }
      return (...args: unknown[]) => {
        if (!isTurnOpen) {
          isTurnOpen = true;
          turns += 1;
          setImmediate(() => {
            isTurnOpen = false;
          });
        }
        return method.apply(target, args);
      };
    },
  });
  return { redis: proxy, turns: () => turns };
}

function setUp(requestsPerMinute: number) {
  const counted = countTurns(redis);
  const limits: AccountLimits = {
    keyRequestsPerMinute: requestsPerMinute,
    keyTokensPerMinute: undefined,
    accountRequestsPerMinute: 600,
    accountTokensPerMinute: 1_000_000,
    accountConcurrentRequests: 10,
    maxKeys: 10,
  };
  const deps = {
    creditHolds: createRedisCreditHolds({
      db: handle.db,
      redis: counted.redis,
      keyPrefix,
      nodeId: 'node-rt',
      recoveryWindowMs: 100,
    }),
    rateLimiter: createRedisRateLimiter({ redis: counted.redis, keyPrefix }),
    concurrencyLimiter: createRedisConcurrencyLimiter({ redis: counted.redis, keyPrefix }),
    spendCapHolds: createSpendCapHolds(),
    spendBudgets: createMemorySpendBudgets(),
    clock: { nowMs: () => Date.now() },
    accountTerms: { limitsOf: () => limits },
  };
  const caller = {
    userId,
    isOperator: false,
    key: {
      id: `key_${requestsPerMinute}`,
      requestsPerMinute: null,
      tokensPerMinute: null,
      spendCapMicros: null,
      spentMicros: 0,
      dailyBudgetMicros: null,
      monthlyBudgetMicros: null,
    },
  } as Caller;
  const reserve = (requestId: string) => {
    const admission = admitCall(deps, { caller, requestId, setHeaders: () => undefined });
    const reserving = reserveCredits(deps, {
      caller,
      model: model as CatalogModel,
      size,
      holdId: requestId,
      admission,
    });
    return { admission, reserving };
  };
  return { deps, reserve, turns: counted.turns };
}

test('with Redis, the request budgets, the slot, the credit hold and the token budgets take one round trip', async () => {
  const { reserve, turns } = setUp(600);
  // The first call registers the node and loads the account from the database.
  const first = reserve('req_rt_1');
  await first.reserving;
  await first.admission[Symbol.asyncDispose]();
  await new Promise((resolve) => setImmediate(resolve));
  const before = turns();
  const second = reserve('req_rt_2');
  const reservation = await second.reserving;
  assert.equal(turns() - before, 1, 'one turn: one write and one round trip');
  assert.ok(reservation.hold.heldMicros > 0);
  assert.ok(reservation.takenTokens);
  await second.admission[Symbol.asyncDispose]();
});

test('with Redis, a refused request budget wins and gives back the hold taken in the same round trip', async () => {
  const { deps, reserve } = setUp(1);
  const first = reserve('req_rt_3');
  const held = await first.reserving;
  const availableAfterFirst = await deps.creditHolds.availableMicros(userId);
  const second = reserve('req_rt_4');
  await assert.rejects(second.reserving, (error: unknown) => {
    assert.ok(error instanceof RateLimitError);
    assert.match(error.message, /this API key: 1 requests per minute/);
    return true;
  });
  assert.equal(await deps.creditHolds.availableMicros(userId), availableAfterFirst, 'nothing more is held');
  await deps.creditHolds.release(held.hold);
  await first.admission[Symbol.asyncDispose]();
  await second.admission[Symbol.asyncDispose]();
});
