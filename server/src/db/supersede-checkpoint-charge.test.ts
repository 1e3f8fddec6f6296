import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertLedgerBalanced } from '../../test/support/assert-ledger-balanced.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../test/support/test-databases.ts';
import { insertApiKey } from './api-keys.ts';
import { createChargeWriter } from './charge-writer.ts';
import { openDatabase, type DatabaseHandle } from './database.ts';
import { postLedgerTransaction, sumLedgerAccount, userLedgerAccount } from './ledger.ts';
import { migrateToLatest } from './migrate.ts';
import type { JournaledCharge } from './settlement-journal.ts';
import { checkpointErrorCode } from './supersede-checkpoint-charge.ts';
import { findUsageRecord, recordCharges } from './usage-records.ts';
import { insertUser } from './users.ts';

const userId = 'usr_supersede';
const keyId = 'key_supersede';
const startingMicros = 1_000_000;
let sequence = 0;

/** A call's charge as a node builds it: a checkpoint (`interrupted`, node lost) or its own final settlement. */
function charge(
  requestId: string,
  input: { costMicros: number; outputTokens: number; kind: 'checkpoint' | 'final' },
): JournaledCharge {
  sequence += 1;
  const isCheckpoint = input.kind === 'checkpoint';
  return {
    ledger: {
      id: `ltx_supersede_${sequence}`,
      idempotencyKey: `usage:${requestId}`,
      kind: 'usage',
      reason: 'chat.completions gpt-4o-mini',
      createdAt: 5000 + sequence,
      entries: [
        { account: userLedgerAccount(userId), amountMicros: -input.costMicros },
        { account: 'system:revenue', amountMicros: input.costMicros },
      ],
    },
    usage: {
      request_id: requestId,
      user_id: userId,
      api_key_id: keyId,
      model_id: 'gpt-4o-mini',
      endpoint: 'chat.completions',
      route_id: 'rte_1',
      provider: 'openai',
      status: isCheckpoint ? 'interrupted' : 'completed',
      error_code: isCheckpoint ? checkpointErrorCode : null,
      input_tokens: 12,
      cached_tokens: 0,
      output_tokens: input.outputTokens,
      reasoning_tokens: 0,
      image_count: 0,
      cost_micros: input.costMicros,
      upstream_cost_micros: null,
      time_to_first_token_ms: 40,
      latency_ms: isCheckpoint ? 900 : 14_000,
      created_at: 5000 + sequence,
    },
  };
}

for (const kind of databaseKinds) {
  describe(`a final charge superseding a checkpoint charge on ${kind} (issue 19)`, () => {
    let testDatabase: TestDatabase;
    let handle: DatabaseHandle;

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
      await insertApiKey(handle.db, {
        id: keyId,
        user_id: userId,
        name: 'test',
        key_hash: 'hash_supersede',
        prefix: 'sk-',
        last_four: 'abcd',
        created_at: 1,
        expires_at: null,
        spend_cap_micros: null,
        allowed_models: null,
        requests_per_minute: null,
        tokens_per_minute: null,
      });
      await postLedgerTransaction(handle.db, {
        id: 'ltx_welcome',
        idempotencyKey: 'welcome:s',
        kind: 'welcome',
        reason: 'welcome',
        createdAt: 2,
        entries: [
          { account: userLedgerAccount(userId), amountMicros: startingMicros },
          { account: 'system:welcome', amountMicros: -startingMicros },
        ],
      });
    });
    after(async () => {
      await handle.close();
      await testDatabase.drop();
    });

    /** What the account paid for one call in total: every ledger entry of its keys. */
    const paidFor = async (requestId: string) => {
      const rows = await handle.db
        .selectFrom('ledger_entries')
        .innerJoin('ledger_transactions', 'ledger_transactions.id', 'ledger_entries.transaction_id')
        .select(['ledger_transactions.idempotency_key as key', 'ledger_entries.amount_micros as amount'])
        .where('ledger_entries.account', '=', userLedgerAccount(userId))
        .where('ledger_transactions.idempotency_key', 'in', [`usage:${requestId}`, `usage:${requestId}:final`])
        .execute();
      return -rows.reduce((sum, row) => sum + Number(row.amount), 0);
    };
    const state = async () => ({
      balance: await sumLedgerAccount(handle.db, userLedgerAccount(userId)),
      cached: Number(
        (
          await handle.db
            .selectFrom('users')
            .select('balance_micros')
            .where('id', '=', userId)
            .executeTakeFirstOrThrow()
        ).balance_micros,
      ),
      keySpent: Number(
        (
          await handle.db
            .selectFrom('api_keys')
            .select('spent_micros')
            .where('id', '=', keyId)
            .executeTakeFirstOrThrow()
        ).spent_micros,
      ),
      rows: Number(
        (
          await handle.db
            .selectFrom('usage_records')
            .select((expression) => expression.fn.countAll().as('count'))
            .executeTakeFirstOrThrow()
        ).count,
      ),
    });

    test('a reaper checkpoint then the final charge: one row with the final figures, the final cost paid', async () => {
      const before = await state();
      await recordCharges(handle.db, [charge('req_up', { costMicros: 5, outputTokens: 3, kind: 'checkpoint' })]);
      const final = charge('req_up', { costMicros: 32, outputTokens: 40, kind: 'final' });
      const outcome = await recordCharges(handle.db, [final]);
      assert.deepEqual(outcome.isNew, [true], 'the final charge changed what the call is charged');
      assert.equal(outcome.balances.at(-1)?.balanceMicros, before.balance - 32, 'the new balance reaches the holds');
      const row = await findUsageRecord(handle.db, 'req_up');
      assert.equal(row?.status, 'completed');
      assert.equal(row?.error_code, null);
      assert.equal(row?.output_tokens, 40);
      assert.equal(Number(row?.cost_micros), 32);
      assert.equal(row?.latency_ms, 14_000);
      assert.equal(await paidFor('req_up'), 32);
      const after = await state();
      assert.equal(after.balance, before.balance - 32);
      assert.equal(after.cached, after.balance);
      assert.equal(after.keySpent, before.keySpent + 32, "the key's spending counts the final cost once");
      assert.equal(after.rows, before.rows + 1);
      await assertLedgerBalanced(handle.db);

      const replayed = await recordCharges(handle.db, [final, final]);
      assert.deepEqual(replayed.isNew, [false, false], 'a replayed final charge changes nothing');
      await recordCharges(handle.db, [charge('req_up', { costMicros: 9, outputTokens: 6, kind: 'checkpoint' })]);
      assert.deepEqual(await state(), after, 'nor does a later checkpoint of the same call');
    });

    test('the bulk charge writer falls back to the careful path, which supersedes the checkpoint', async () => {
      const before = await state();
      await recordCharges(handle.db, [charge('req_bulk', { costMicros: 11, outputTokens: 8, kind: 'checkpoint' })]);
      const writer = createChargeWriter({ db: handle.settlementDb, writerThread: handle.writerThread });
      const group = [
        charge('req_bulk_other', { costMicros: 7, outputTokens: 5, kind: 'final' }),
        charge('req_bulk', { costMicros: 50, outputTokens: 60, kind: 'final' }),
      ];
      const outcome = await writer.write(
        group,
        group.map((item) => JSON.stringify(item)),
      );
      assert.deepEqual(outcome.isNew, [true, true]);
      assert.equal(await paidFor('req_bulk'), 50);
      assert.equal((await state()).balance, before.balance - 57);
      await assertLedgerBalanced(handle.db);
    });

    test('two writers of the same final charge at once (the node and a reaper): superseded once', async () => {
      await recordCharges(handle.db, [charge('req_race', { costMicros: 4, outputTokens: 2, kind: 'checkpoint' })]);
      const before = await state();
      const final = charge('req_race', { costMicros: 30, outputTokens: 33, kind: 'final' });
      const outcomes = await Promise.all([recordCharges(handle.db, [final]), recordCharges(handle.db, [final])]);
      assert.deepEqual(outcomes.map((outcome) => outcome.isNew[0]).sort(), [false, true]);
      assert.equal(await paidFor('req_race'), 30);
      assert.equal((await state()).balance, before.balance - 26);
      await assertLedgerBalanced(handle.db);
    });

    test('a final charge below the checkpoint (the vendor counted less than the estimate) gives the rest back', async () => {
      await recordCharges(handle.db, [charge('req_down', { costMicros: 20, outputTokens: 25, kind: 'checkpoint' })]);
      const before = await state();
      await recordCharges(handle.db, [charge('req_down', { costMicros: 14, outputTokens: 18, kind: 'final' })]);
      assert.equal(await paidFor('req_down'), 14, 'the call costs what its answer said, as usage.cost');
      assert.equal(Number((await findUsageRecord(handle.db, 'req_down'))?.cost_micros), 14);
      const after = await state();
      assert.equal(after.balance, before.balance + 6);
      assert.equal(after.keySpent, before.keySpent - 6);
      await assertLedgerBalanced(handle.db);
    });

    test('a checkpoint that arrives after the final charge, and a final after a final, change nothing', async () => {
      const final = charge('req_late', { costMicros: 25, outputTokens: 30, kind: 'final' });
      await recordCharges(handle.db, [final]);
      const before = await state();
      const outcome = await recordCharges(handle.db, [
        charge('req_late', { costMicros: 3, outputTokens: 2, kind: 'checkpoint' }),
        charge('req_late', { costMicros: 40, outputTokens: 50, kind: 'final' }),
      ]);
      assert.deepEqual(outcome.isNew, [false, false]);
      assert.deepEqual(await state(), before);
      assert.equal(await paidFor('req_late'), 25);
    });
  });
}
