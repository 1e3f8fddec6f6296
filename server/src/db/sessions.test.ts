import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../test/support/test-databases.ts';
import { openDatabase, type DatabaseHandle } from './database.ts';
import { migrateToLatest } from './migrate.ts';
import { findLiveSessionByTokenHash, insertSession, revokeOtherSessions, revokeSession } from './sessions.ts';
import { insertUser } from './users.ts';

for (const kind of databaseKinds) {
  describe(`sessions on ${kind}`, () => {
    let testDatabase: TestDatabase;
    let handle: DatabaseHandle;
    const userId = 'usr_sessions';
    const newSession = (id: string, expiresAt: number) =>
      insertSession(handle.db, {
        id,
        user_id: userId,
        token_hash: `hash_${id}`,
        csrf_token: `csrf_${id}`,
        created_at: 1,
        expires_at: expiresAt,
      });

    before(async () => {
      testDatabase = await createTestDatabase(kind);
      handle = openDatabase(testDatabase.config);
      await migrateToLatest(handle.db);
      await insertUser(handle.db, {
        id: userId,
        email: 's@example.com',
        password_hash: 'x',
        role: 'user',
        created_at: 1,
      });
    });
    after(async () => {
      await handle.close();
      await testDatabase.drop();
    });

    test('a session is found by its token hash until it expires or is revoked', async () => {
      await newSession('ses_a', 1_000);
      const found = await findLiveSessionByTokenHash(handle.db, { tokenHash: 'hash_ses_a', nowMs: 999 });
      assert.equal(found?.user_id, userId);
      assert.equal(found?.user_status, 'active');
      assert.equal(found?.csrf_token, 'csrf_ses_a');
      assert.equal(await findLiveSessionByTokenHash(handle.db, { tokenHash: 'hash_ses_a', nowMs: 1_000 }), undefined);
      await revokeSession(handle.db, { sessionId: 'ses_a', revokedAt: 500 });
      assert.equal(await findLiveSessionByTokenHash(handle.db, { tokenHash: 'hash_ses_a', nowMs: 10 }), undefined);
    });

    test('revoking the other sessions keeps the one that asked', async () => {
      await newSession('ses_b', 10_000);
      await newSession('ses_c', 10_000);
      await newSession('ses_d', 10_000);
      assert.equal(await revokeOtherSessions(handle.db, { userId, keptSessionId: 'ses_c', revokedAt: 5 }), 2);
      const live = await Promise.all(
        ['ses_b', 'ses_c', 'ses_d'].map((id) =>
          findLiveSessionByTokenHash(handle.db, { tokenHash: `hash_${id}`, nowMs: 10 }),
        ),
      );
      assert.deepEqual(
        live.map((session) => session?.id),
        [undefined, 'ses_c', undefined],
      );
    });
  });
}
