import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../test/support/test-databases.ts';
import { openDatabase, type DatabaseHandle } from './database.ts';
import { postLedgerTransaction, sumLedgerAccount, userLedgerAccount } from './ledger.ts';
import { migrateToLatest } from './migrate.ts';
import { findUserById, insertUser } from './users.ts';

for (const kind of databaseKinds) {
  describe(`ledger on ${kind}`, () => {
    let testDatabase: TestDatabase;
    let handle: DatabaseHandle;
    const userId = 'usr_ledger';
    const credit = (idempotencyKey: string, amountMicros: number) =>
      postLedgerTransaction(handle.db, {
        id: `ltx_${idempotencyKey}`,
        idempotencyKey,
        kind: 'adjustment',
        reason: 'test',
        createdAt: 1,
        entries: [
          { account: userLedgerAccount(userId), amountMicros },
          { account: 'system:adjustments', amountMicros: -amountMicros },
        ],
      });

    before(async () => {
      testDatabase = await createTestDatabase(kind);
      handle = openDatabase(testDatabase.config);
      await migrateToLatest(handle.db);
      await insertUser(handle.db, {
        id: userId,
        email: 'l@example.com',
        password_hash: 'x',
        role: 'user',
        created_at: 1,
      });
    });
    after(async () => {
      await handle.close();
      await testDatabase.drop();
    });

    test('migrations are idempotent', async () => {
      assert.deepEqual(await migrateToLatest(handle.db), []);
    });

    test('a transaction is applied once per idempotency key, and the balance is the sum of entries', async () => {
      assert.equal(await credit('top-up-1', 5_000_000), true);
      assert.equal(await credit('top-up-1', 5_000_000), false);
      assert.equal(await credit('top-up-2', 1_500_000), true);
      const user = await findUserById(handle.db, userId);
      assert.equal(user?.balance_micros, 6_500_000);
      assert.equal(await sumLedgerAccount(handle.db, userLedgerAccount(userId)), 6_500_000);
      assert.equal(await sumLedgerAccount(handle.db, 'system:adjustments'), -6_500_000);
    });

    test('concurrent retries of the same key count once', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, () => credit('webhook-retry', 1_000_000)));
      assert.equal(results.filter(Boolean).length, 1);
      const user = await findUserById(handle.db, userId);
      assert.equal(user?.balance_micros, await sumLedgerAccount(handle.db, userLedgerAccount(userId)));
    });

    test('an unbalanced transaction is refused and changes nothing', async () => {
      const before = await sumLedgerAccount(handle.db, userLedgerAccount(userId));
      await assert.rejects(
        postLedgerTransaction(handle.db, {
          id: 'ltx_bad',
          idempotencyKey: 'bad',
          kind: 'adjustment',
          reason: 'test',
          createdAt: 1,
          entries: [{ account: userLedgerAccount(userId), amountMicros: 10 }],
        }),
        /unbalanced/,
      );
      assert.equal(await sumLedgerAccount(handle.db, userLedgerAccount(userId)), before);
    });
  });
}
