import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { buildUsageRecord } from '../../test/support/usage-record-builder.ts';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-databases.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { sumLedgerAccount, userLedgerAccount } from '../db/ledger.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { JournaledCharge } from '../db/settlement-journal.ts';
import { recordFailedCall } from '../db/usage-records.ts';
import { insertUser } from '../db/users.ts';
import { createLocalDeliveryFile, recoverLocalDeliveries } from './local-delivery-file.ts';

let testDatabase: TestDatabase;
let handle: DatabaseHandle;
let directory: string;
before(async () => {
  testDatabase = await createTestDatabase('sqlite');
  handle = openDatabase(testDatabase.config);
  await migrateToLatest(handle.db);
  directory = mkdtempSync(path.join(tmpdir(), 'local-deliveries-'));
  await insertUser(handle.db, { id: 'usr_d', email: 'd@example.com', password_hash: 'x', role: 'user', created_at: 1 });
});
after(async () => {
  await handle.close();
  await testDatabase.drop();
  rmSync(directory, { recursive: true, force: true });
});

function delivered(requestId: string, costMicros: number): JournaledCharge {
  const usage = buildUsageRecord({
    user_id: 'usr_d',
    request_id: requestId,
    cost_micros: costMicros,
    status: 'interrupted',
  });
  const entries = [
    { account: userLedgerAccount('usr_d'), amountMicros: -costMicros },
    { account: 'system:revenue', amountMicros: costMicros },
  ];
  const ledger = { id: `ltx_${requestId}`, idempotencyKey: `usage:${requestId}`, kind: 'usage' as const };
  return { ledger: { ...ledger, reason: 'chat.completions gpt-4o', createdAt: 2, entries }, usage };
}

test('a restart bills the checkpoints of calls never settled, skips calls already recorded, and drops closed ones', async () => {
  const filePath = path.join(directory, 'deliveries.ndjson');
  const file = createLocalDeliveryFile(filePath);
  const text = (charge: JournaledCharge) => JSON.stringify(charge);
  await file.write(
    [
      ['h_open', text(delivered('req_open', 700))],
      ['h_failed', text(delivered('req_failed', 300))],
      ['h_closed', text(delivered('req_closed', 900))],
    ],
    [],
  );
  await file.write([['h_open', text(delivered('req_open', 1_000))]], ['h_closed']);
  // The process recorded one call as failed (cost 0) before it died: its checkpoint must not bill it too.
  const failed = buildUsageRecord({ user_id: 'usr_d', request_id: 'req_failed', cost_micros: 0 });
  await recordFailedCall(handle.db, { ...failed, status: 'failed', error_code: 'internal_error' });

  const recovered = await recoverLocalDeliveries({ db: handle.db, filePath });
  assert.deepEqual(recovered, { chargeCount: 1, userIds: ['usr_d'] });
  assert.equal(await sumLedgerAccount(handle.db, userLedgerAccount('usr_d')), -1_000, 'the latest checkpoint, once');
  assert.equal(existsSync(filePath), false);
  assert.deepEqual(await recoverLocalDeliveries({ db: handle.db, filePath }), { chargeCount: 0, userIds: [] });
});
