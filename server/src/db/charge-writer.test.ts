import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../test/support/test-databases.ts';
import { createChargeWriter, type ChargeWriter } from './charge-writer.ts';
import { openDatabase, type DatabaseHandle } from './database.ts';
import { sumLedgerAccount, userLedgerAccount } from './ledger.ts';
import { migrateToLatest } from './migrate.ts';
import type { JournaledCharge } from './settlement-journal.ts';
import { insertUser } from './users.ts';
import { insertApiKey } from './api-keys.ts';

const userId = 'usr_charges';
let sequence = 0;

function charge(costMicros: number): JournaledCharge {
  sequence += 1;
  const requestId = `req_${sequence}`;
  return {
    ledger: {
      id: `ltx_${sequence}`,
      idempotencyKey: `usage:${requestId}`,
      kind: 'usage',
      reason: 'chat.completions gpt-4o-mini',
      createdAt: 1000 + sequence,
      entries: [
        { account: userLedgerAccount(userId), amountMicros: -costMicros },
        { account: 'system:revenue', amountMicros: costMicros },
      ],
    },
    usage: {
      request_id: requestId,
      user_id: userId,
      api_key_id: null,
      model_id: 'gpt-4o-mini',
      endpoint: 'chat.completions',
      route_id: null,
      provider: null,
      status: 'completed',
      error_code: null,
      input_tokens: 10,
      cached_tokens: 0,
      output_tokens: 20,
      reasoning_tokens: 0,
      image_count: 0,
      cost_micros: costMicros,
      time_to_first_token_ms: null,
      latency_ms: 3,
      created_at: 1000 + sequence,
    },
  };
}

for (const kind of databaseKinds) {
  describe(`charge writer on ${kind}${kind === 'sqlite' ? ' (writer thread)' : ''}`, () => {
    let testDatabase: TestDatabase;
    let handle: DatabaseHandle;
    let writer: ChargeWriter;
    const errors: string[] = [];

    before(async () => {
      testDatabase = await createTestDatabase(kind);
      handle = openDatabase(testDatabase.config, {
        writerThread: { checkpointIntervalMs: 50, onError: (message) => errors.push(message) },
      });
      await migrateToLatest(handle.db);
      await insertUser(handle.db, {
        id: userId,
        email: 'c@example.com',
        password_hash: 'x',
        role: 'user',
        created_at: 1,
      });
      writer = createChargeWriter({ db: handle.settlementDb, writerThread: handle.writerThread });
    });
    after(async () => {
      await handle.close();
      await testDatabase.drop();
      assert.deepEqual(errors, []);
    });

    const balance = () => sumLedgerAccount(handle.db, userLedgerAccount(userId));
    /** A group as the settlement writer hands it over: the charges and the journal's JSON line of each. */
    const writeGroup = (charges: readonly JournaledCharge[]) =>
      writer.write(
        charges,
        charges.map((item) => JSON.stringify(item)),
      );
    const usageCount = async () =>
      Number(
        (
          await handle.db
            .selectFrom('usage_records')
            .select((expression) => expression.fn.countAll().as('count'))
            .executeTakeFirstOrThrow()
        ).count,
      );

    test('a group of new charges is written in one go and returns the balance with a raised version', async () => {
      assert.equal(handle.writerThread !== undefined, kind === 'sqlite');
      const before = await handle.db
        .selectFrom('users')
        .select(['balance_micros', 'balance_version'])
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      const outcome = await writeGroup([charge(100), charge(250), charge(50)]);
      assert.deepEqual(outcome.isNew, [true, true, true]);
      assert.deepEqual(outcome.balances, [
        { userId, balanceMicros: before.balance_micros - 400, version: before.balance_version + 1 },
      ]);
      assert.equal(await balance(), before.balance_micros - 400);
      assert.equal(await usageCount(), 3);
    });

    test('a group with a charge written before is written again one by one, and nothing counts twice', async () => {
      const first = charge(70);
      await writeGroup([first]);
      const balanceBefore = await balance();
      const usageBefore = await usageCount();
      const outcome = await writeGroup([charge(5), first, charge(7)]);
      assert.deepEqual(outcome.isNew, [true, false, true]);
      assert.equal(await balance(), balanceBefore - 12);
      assert.equal(await usageCount(), usageBefore + 2);
      const user = await handle.db
        .selectFrom('users')
        .select('balance_micros')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      assert.equal(user.balance_micros, await balance(), 'the cached balance is the sum of the entries');
    });

    test("every field of a usage row and the key spend arrive as settled, from the journal's JSON lines", async () => {
      const keyId = `key_writer_${kind}`;
      await insertApiKey(handle.db, {
        id: keyId,
        user_id: userId,
        name: 'writer',
        key_hash: `hash-${kind}`,
        prefix: 'sk-',
        last_four: 'abcd',
        created_at: 1,
        expires_at: null,
        spend_cap_micros: null,
        allowed_models: null,
        requests_per_minute: null,
        tokens_per_minute: null,
      });
      const keyed = (costMicros: number, upstreamCostMicros: number | undefined): JournaledCharge => {
        const base = charge(costMicros);
        const usage = { ...base.usage, api_key_id: keyId, route_id: 'rte_a', provider: 'openai', error_code: 'x' };
        return {
          ...base,
          usage: upstreamCostMicros === undefined ? usage : { ...usage, upstream_cost_micros: upstreamCostMicros },
        };
      };
      const first = keyed(30, 12);
      const second = keyed(45, undefined);
      const charges = [first, second];
      await writeGroup(charges);
      const rows = await handle.db
        .selectFrom('usage_records')
        .selectAll()
        .where('api_key_id', '=', keyId)
        .orderBy('created_at')
        .execute();
      assert.deepEqual(
        rows.map((row) => ({ ...row })),
        [
          { ...first.usage, upstream_cost_micros: 12 },
          { ...second.usage, upstream_cost_micros: null },
        ].map((usage) => ({ ...rows[0], ...usage })),
      );
      const key = await handle.db
        .selectFrom('api_keys')
        .select(['spent_micros', 'last_used_at'])
        .where('id', '=', keyId)
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        { spent: Number(key.spent_micros), lastUsedAt: Number(key.last_used_at) },
        { spent: 75, lastUsedAt: second.usage.created_at },
      );
    });

    test('an unbalanced ledger transaction is refused and writes nothing', async () => {
      const broken = charge(10);
      const usageBefore = await usageCount();
      const balanceBefore = await balance();
      await assert.rejects(
        writeGroup([{ ...broken, ledger: { ...broken.ledger, entries: broken.ledger.entries.slice(0, 1) } }]),
        /unbalanced ledger transaction/,
      );
      assert.equal(await usageCount(), usageBefore);
      assert.equal(await balance(), balanceBefore);
    });
  });
}
