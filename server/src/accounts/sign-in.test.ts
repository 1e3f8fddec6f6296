import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-databases.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { AuthenticationError } from '../errors/authentication-error.ts';
import { RateLimitError } from '../errors/rate-limit-error.ts';
import { createMemoryRateLimiter } from '../limits/rate-limiter.ts';
import { systemClock } from '../lib/clock.ts';
import { cryptoIds } from '../lib/ids.ts';
import { createUser } from './create-user.ts';
import { argon2PasswordHasher } from './password-hash.ts';
import { signIn } from './sign-in.ts';
import {
  loginAttemptsPerMinutePerAccount,
  loginAttemptsPerMinutePerAddressAndEmail,
  maxSignInBackOffMs,
} from './throttle-attempt.ts';

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

/** The part of an Argon2id PHC string that sets its cost: algorithm, version, memory, passes, lanes. */
const costOf = (hash: string) => hash.split('$').slice(1, 4).join('$');

test('an unknown e-mail costs one full Argon2id check, like a wrong password, and gets the same answer', async () => {
  const email = 'timing@example.com';
  await createUser(
    { db: handle.db, clock: systemClock, ids: cryptoIds },
    { email, password: 'correct horse battery staple', role: 'user', welcomeBalanceMicros: 0 },
  );
  const stored = (await handle.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow()).password_hash;
  const checked: string[] = [];
  const deps = {
    db: handle.db,
    clock: systemClock,
    ids: cryptoIds,
    creditHolds: { availableMicros: async () => 0 },
    rateLimiter: createMemoryRateLimiter({ nowMs: () => systemClock.nowMs() }),
    wait: async () => undefined,
    passwords: {
      verify: async (password: string, hash: string) => {
        checked.push(hash);
        return argon2PasswordHasher.verify(password, hash);
      },
    },
  };
  const attempt = (credentials: { email: string; password: string }) =>
    signIn(deps, { credentials, clientIp: '192.0.2.1' }).then(
      () => undefined,
      (error: unknown) => error,
    );
  const wrongPassword = await attempt({ email, password: 'wrong password 123' });
  const unknownEmail = await attempt({ email: 'nobody@example.com', password: 'wrong password 123' });
  assert.ok(wrongPassword instanceof AuthenticationError && unknownEmail instanceof AuthenticationError);
  assert.deepEqual(
    { message: unknownEmail.message, code: unknownEmail.code },
    { message: wrongPassword.message, code: wrongPassword.code },
  );
  assert.equal(checked.length, 2, 'each attempt checked exactly one password');
  assert.equal(checked[0], stored, 'the wrong password was checked against the real hash');
  assert.notEqual(checked[1], stored);
  assert.equal(costOf(checked[1]!), costOf(stored), 'the unknown e-mail was checked against a hash of the same cost');
  assert.match(costOf(stored), /^argon2id\$v=19\$m=19456,t=2,p=1$/);
  assert.equal(await argon2PasswordHasher.verify('wrong password 123', checked[1]!), false);
});

test('issue 19: guesses from one address are refused there, and the owner still signs in from another', async () => {
  const email = 'owner-19@example.com';
  const password = 'correct horse battery staple';
  await createUser(
    { db: handle.db, clock: systemClock, ids: cryptoIds },
    { email, password, role: 'user', welcomeBalanceMicros: 0 },
  );
  const nowMs = 5_000_000;
  const waits: number[] = [];
  const deps = {
    db: handle.db,
    clock: { nowMs: () => nowMs },
    ids: cryptoIds,
    creditHolds: { availableMicros: async () => 0 },
    rateLimiter: createMemoryRateLimiter({ nowMs: () => nowMs }),
    wait: async (ms: number) => void waits.push(ms),
    // The password check itself is tested above; here only its verdict matters.
    passwords: { verify: async (candidate: string) => candidate === password },
  };
  const attempt = (clientIp: string, candidate: string) =>
    signIn(deps, { credentials: { email, password: candidate }, clientIp }).then(
      () => 'signed in',
      (error: unknown) => (error instanceof RateLimitError ? 429 : error instanceof AuthenticationError ? 401 : error),
    );
  const attacker = [];
  for (let index = 0; index <= loginAttemptsPerMinutePerAddressAndEmail; index += 1) {
    attacker.push(await attempt('203.0.113.7', `guess ${index}`));
  }
  assert.deepEqual(attacker.slice(0, -1), Array(loginAttemptsPerMinutePerAddressAndEmail).fill(401));
  assert.equal(attacker.at(-1), 429, 'the attacking address is refused');
  assert.equal(await attempt('203.0.113.7', password), 429, 'even with the right password, from that address');
  assert.equal(await attempt('198.51.100.2', password), 'signed in', 'the owner, from another address');
  assert.deepEqual(waits, [], 'no back-off while the account budget lasts');

  // Many addresses, a few guesses each: the account's budget runs out, then every attempt waits, the owner's too.
  for (let index = 0; index < loginAttemptsPerMinutePerAccount; index += 1) {
    assert.equal(await attempt(`192.0.2.${index + 1}`, `spread guess ${index}`), 401);
  }
  assert.ok(waits.length > 0, 'the spread attack met the back-off');
  assert.ok(
    waits.every((ms) => ms > 0 && ms <= maxSignInBackOffMs),
    String(waits),
  );
  const waitsBeforeOwner = waits.length;
  assert.equal(await attempt('198.51.100.2', password), 'signed in', 'the owner gets in, later but not locked out');
  assert.equal(waits.length, waitsBeforeOwner + 1, 'and waited like everyone, so the wait tells nothing');
});
