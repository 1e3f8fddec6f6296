import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../test/support/test-databases.ts';
import { assertLedgerBalanced } from '../../test/support/assert-ledger-balanced.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { postLedgerTransaction, sumLedgerAccount, userLedgerAccount } from '../db/ledger.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { findUserByEmail } from '../db/users.ts';
import { systemClock } from '../lib/clock.ts';
import { cryptoIds, type IdGenerator } from '../lib/ids.ts';
import { createUser } from './create-user.ts';

for (const kind of databaseKinds) {
  describe(`creating a user on ${kind}`, () => {
    let testDatabase: TestDatabase;
    let handle: DatabaseHandle;
    before(async () => {
      testDatabase = await createTestDatabase(kind);
      handle = openDatabase(testDatabase.config);
      await migrateToLatest(handle.db);
    });
    after(async () => {
      await handle.close();
      await testDatabase.drop();
    });

    const newUser = (email: string, ids: IdGenerator = cryptoIds) =>
      createUser(
        { db: handle.db, clock: systemClock, ids },
        { email, password: 'correct horse battery staple', role: 'user', welcomeBalanceMicros: 1_000_000 },
      );

    test('credits the welcome balance through the ledger together with the account', async () => {
      const user = await newUser('welcome@example.com');
      assert.equal(await sumLedgerAccount(handle.db, userLedgerAccount(user.id)), 1_000_000);
      assert.equal((await findUserByEmail(handle.db, 'welcome@example.com'))?.balance_micros, 1_000_000);
      await assertLedgerBalanced(handle.db);
    });

    test('an account whose welcome credit cannot be written is not created either', async () => {
      // A ledger transaction id that is already taken makes the welcome credit fail after the user row was inserted.
      await postLedgerTransaction(handle.db, {
        id: 'ltx_taken',
        idempotencyKey: 'test:taken',
        kind: 'adjustment',
        reason: 'test',
        createdAt: 1,
        entries: [],
      });
      const clashingIds: IdGenerator = {
        ...cryptoIds,
        newId: (prefix) => (prefix === 'ltx_' ? 'ltx_taken' : cryptoIds.newId(prefix)),
      };
      await assert.rejects(newUser('half@example.com', clashingIds));
      assert.equal(await findUserByEmail(handle.db, 'half@example.com'), undefined, 'no account without its credit');
      const welcomeCredits = await handle.db
        .selectFrom('ledger_transactions')
        .select('id')
        .where('kind', '=', 'welcome')
        .execute();
      assert.equal(welcomeCredits.length, 1, 'only the first account got a welcome credit');
      await assertLedgerBalanced(handle.db);
      const retried = await newUser('half@example.com');
      assert.equal(await sumLedgerAccount(handle.db, userLedgerAccount(retried.id)), 1_000_000, 'a retry works');
    });
  });
}
