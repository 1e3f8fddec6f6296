import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-databases.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { AuthenticationError } from '../errors/authentication-error.ts';
import { createMemoryRateLimiter } from '../limits/rate-limiter.ts';
import { systemClock } from '../lib/clock.ts';
import { cryptoIds } from '../lib/ids.ts';
import { createUser } from './create-user.ts';
import { argon2PasswordHasher } from './password-hash.ts';
import { signIn } from './sign-in.ts';

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
