import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { findUsageRecord, recordCharges } from '../../src/db/usage-records.ts';
import type { JournaledCharge } from '../../src/db/settlement-journal.ts';
import { startGateway } from '../../src/start-gateway.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';
import { testRedisUrl } from '../support/test-redis.ts';

function journaledCharge(input: { userId: string; requestId: string; costMicros: number }): JournaledCharge {
  return {
    ledger: {
      id: `ltx_${input.requestId}`,
      idempotencyKey: `usage:${input.requestId}`,
      kind: 'usage',
      reason: 'chat.completions gpt-4o-mini',
      createdAt: Date.now(),
      entries: [
        { account: userLedgerAccount(input.userId), amountMicros: -input.costMicros },
        { account: 'system:revenue', amountMicros: input.costMicros },
      ],
    },
    usage: {
      request_id: input.requestId,
      user_id: input.userId,
      api_key_id: null,
      model_id: 'gpt-4o-mini',
      endpoint: 'chat.completions',
      route_id: null,
      provider: 'openai',
      status: 'completed',
      error_code: null,
      input_tokens: 20,
      cached_tokens: 0,
      output_tokens: 40,
      reasoning_tokens: 0,
      image_count: 0,
      cost_micros: input.costMicros,
      time_to_first_token_ms: 5,
      latency_ms: 30,
      created_at: Date.now(),
    },
  };
}

for (const databaseKind of databaseKinds) {
  describe(`replaying the settlement journal at start on ${databaseKind}`, () => {
    let gateway: TestGateway;
    before(async () => {
      const environment = databaseKind === 'postgres' ? { REDIS_URL: testRedisUrl() } : {};
      gateway = await startTestGateway({ databaseKind, environment });
    });
    after(() => gateway.close());

    test('charges a stopped process journaled are written once, a torn line is skipped, and the balance follows', async () => {
      const { userId } = await gateway.createUserWithKey({ balanceMicros: 1_000_000 });
      const written = journaledCharge({ userId, requestId: 'req_replay_written', costMicros: 1_000 });
      const unwritten = journaledCharge({ userId, requestId: 'req_replay_lost', costMicros: 2_500 });
      await recordCharges(gateway.gateway.database.settlementDb, [written]);
      await gateway.gateway.close();
      const journal = path.join(gateway.config.dataDir, 'settlements');
      mkdirSync(journal, { recursive: true });
      // One charge of the dead process reached the database before it died, the other did not; a third was torn.
      writeFileSync(
        path.join(journal, 'settlements-7.ndjson'),
        `${JSON.stringify(written)}\n${JSON.stringify(unwritten)}\n${JSON.stringify(written).slice(0, 90)}`,
      );
      const restarted = await startGateway(gateway.config, pino({ level: 'silent' }));
      gateway.gateway = restarted;
      const db = restarted.database.db;
      assert.equal((await findUsageRecord(db, 'req_replay_written'))?.cost_micros, 1_000);
      assert.equal((await findUsageRecord(db, 'req_replay_lost'))?.cost_micros, 2_500);
      assert.equal(await sumLedgerAccount(db, userLedgerAccount(userId)), 1_000_000 - 3_500);
      await assertLedgerBalanced(db);
      const segments = readdirSync(journal).filter((name) => name.endsWith('.ndjson'));
      assert.ok(!segments.includes('settlements-7.ndjson'), 'the replayed segment is gone');
      for (const name of segments) assert.equal(readFileSync(path.join(journal, name), 'utf8'), '');
      // A second restart on the same journal directory charges nothing more.
      await restarted.close();
      const again = await startGateway(gateway.config, pino({ level: 'silent' }));
      gateway.gateway = again;
      assert.equal(await sumLedgerAccount(again.database.db, userLedgerAccount(userId)), 1_000_000 - 3_500);
    });
  });
}
