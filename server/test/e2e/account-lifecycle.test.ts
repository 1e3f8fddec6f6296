import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { AccountExport } from '../../../contract/account-email.ts';
import { pruneUsageRecords } from '../../src/accounts/prune-usage-records.ts';
import { sumLedgerAccount } from '../../src/db/ledger.ts';
import { findUserById } from '../../src/db/users.ts';
import { recordFailedCall } from '../../src/db/usage-records.ts';
import { callApi, readError, signIn } from '../support/account-api-client.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

const password = 'correct horse battery staple';
const dayMs = 86_400_000;

for (const databaseKind of databaseKinds) {
  describe(`account lifecycle on ${databaseKind}: export, delete, usage retention`, () => {
    let gateway: TestGateway;
    let count = 0;
    const newEmail = () => `life${++count}-${databaseKind}@example.com`;
    const chat = (key: string) =>
      fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'a private prompt 7f3a' }] }),
      });

    before(async () => {
      gateway = await startTestGateway({ databaseKind });
    });
    after(() => gateway.close());
    afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

    test('the export holds the account, its keys without secrets and its usage without text', async () => {
      const email = newEmail();
      const { key } = await gateway.createUserWithKey({ email });
      const answer = await chat(key);
      assert.equal(answer.status, 200, await answer.text());
      const session = await signIn(gateway.url, { email });
      const exported = await callApi(gateway.url, '/api/me/export', { session });
      assert.equal(exported.status, 200, exported.text);
      const data = exported.json as AccountExport;
      assert.equal(data.account.email, email);
      assert.equal(data.account.status, 'active');
      assert.equal(data.api_keys.length, 1);
      assert.equal(data.api_keys[0]?.revoked_at, null);
      assert.equal(data.usage.length, 1);
      assert.equal(data.usage[0]?.model, 'gpt-4o-mini');
      assert.equal(data.is_usage_truncated, false);
      assert.ok(!exported.text.includes(key), 'no key secret');
      assert.ok(!exported.text.includes('7f3a'), 'no prompt text');
    });

    test('deleting asks for the password and a decision on the balance; forfeit moves it through the ledger', async () => {
      const email = newEmail();
      const { userId, key } = await gateway.createUserWithKey({ email });
      const session = await signIn(gateway.url, { email });
      const wrong = await callApi(gateway.url, '/api/me/delete', { session, body: { password: 'not the password' } });
      assert.equal(readError(wrong).code, 'incorrect_password');
      const undecided = await callApi(gateway.url, '/api/me/delete', { session, body: { password } });
      assert.equal(undecided.status, 409);
      assert.equal(readError(undecided).code, 'balance_remaining');
      assert.match(readError(undecided).message, /1\.000000 USD/);
      const deleted = await callApi(gateway.url, '/api/me/delete', { session, body: { password, balance: 'forfeit' } });
      assert.equal(deleted.status, 204, deleted.text);
      assert.match(deleted.headers.get('set-cookie') ?? '', /Max-Age=0/);
      assert.equal((await callApi(gateway.url, '/api/me', { session })).status, 401);
      assert.equal((await callApi(gateway.url, '/api/auth/login', { body: { email, password } })).status, 401);
      assert.equal((await chat(key)).status, 401, 'its keys stop at once');
      const row = await findUserById(gateway.gateway.database.db, userId);
      assert.equal(row?.email, `deleted+${userId}@deleted.invalid`);
      assert.equal(row?.balance_micros, 0);
      assert.equal(await sumLedgerAccount(gateway.gateway.database.db, 'system:forfeited-balances'), 1_000_000);
      const again = await callApi(gateway.url, '/api/auth/register', { body: { email, password } });
      assert.equal(again.status, 201, 'the address is free again');
    });

    test('a balance left for the operator to refund stays on the deleted account', async () => {
      const email = newEmail();
      const { userId } = await gateway.createUserWithKey({ email });
      const session = await signIn(gateway.url, { email });
      const deleted = await callApi(gateway.url, '/api/me/delete', {
        session,
        body: { password, balance: 'leave_for_refund' },
      });
      assert.equal(deleted.status, 204, deleted.text);
      const row = await findUserById(gateway.gateway.database.db, userId);
      assert.equal(row?.balance_micros, 1_000_000);
      assert.equal(row?.status, 'blocked');
      assert.notEqual(row?.deleted_at, null);
    });

    test('deleting is refused while a top-up may still be paid', async () => {
      const email = newEmail();
      await gateway.createUserWithKey({ email, balanceMicros: 0 });
      const session = await signIn(gateway.url, { email });
      const order = await callApi(gateway.url, '/api/top-ups', {
        session,
        body: { method: 'card_usd', currency: 'USD', amount_minor: 500 },
      });
      assert.equal(order.status, 201, order.text);
      const refused = await callApi(gateway.url, '/api/me/delete', { session, body: { password } });
      assert.equal(refused.status, 409);
      assert.equal(readError(refused).code, 'payment_in_flight');
      assert.equal((await callApi(gateway.url, '/api/me', { session })).status, 200, 'nothing was deleted');
    });

    test('the retention pass deletes usage records older than the retention, and only those', async () => {
      const { userId } = await gateway.createUserWithKey({ email: newEmail() });
      const db = gateway.gateway.database.db;
      const nowMs = Date.now();
      for (const [requestId, ageDays] of [
        ['req_old', 40],
        ['req_recent', 10],
      ] as const) {
        await recordFailedCall(db, {
          request_id: `${requestId}_${databaseKind}`,
          user_id: userId,
          api_key_id: null,
          model_id: 'gpt-4o-mini',
          endpoint: 'chat.completions',
          route_id: null,
          provider: null,
          status: 'failed',
          error_code: 'upstream_error',
          upstream_cost_micros: null,
          input_tokens: 0,
          cached_tokens: 0,
          output_tokens: 0,
          reasoning_tokens: 0,
          image_count: 0,
          cost_micros: 0,
          time_to_first_token_ms: null,
          latency_ms: 1,
          created_at: nowMs - ageDays * dayMs,
        });
      }
      const deleted = await pruneUsageRecords({ db, clock: { nowMs: () => nowMs }, retentionDays: 30 });
      assert.equal(deleted, 1);
      const left = await db.selectFrom('usage_records').select('request_id').where('user_id', '=', userId).execute();
      assert.deepEqual(
        left.map((row) => row.request_id),
        [`req_recent_${databaseKind}`],
      );
      assert.equal(await pruneUsageRecords({ db, clock: { nowMs: () => nowMs }, retentionDays: 0 }), 0);
    });
  });
}
