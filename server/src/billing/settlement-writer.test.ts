import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import type { ChargeWriter } from '../db/charge-writer.ts';
import type { Database } from '../db/database.ts';
import { createTestDatabase } from '../../test/support/test-databases.ts';
import { openDatabase } from '../db/database.ts';
import { postLedgerTransaction, userLedgerAccount } from '../db/ledger.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { readUnappliedCharges, type JournaledCharge, type SettlementJournal } from '../db/settlement-journal.ts';
import { insertUser, listBalanceSnapshots } from '../db/users.ts';
import { createMemoryCreditHolds, type CommittedCharges, type CreditHold } from './credit-holds.ts';
import { createSettlementWriter } from './settlement-writer.ts';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'settlement-writer-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function charge(requestId: string, costMicros = 10): JournaledCharge {
  return {
    ledger: {
      id: `ltx_${requestId}`,
      idempotencyKey: `usage:${requestId}`,
      kind: 'usage',
      reason: 'chat.completions gpt-4o-mini',
      createdAt: 1,
      entries: [
        { account: 'user:usr_1', amountMicros: -costMicros },
        { account: 'system:revenue', amountMicros: costMicros },
      ],
    },
    usage: {
      request_id: requestId,
      user_id: 'usr_1',
      api_key_id: null,
      model_id: 'gpt-4o-mini',
      endpoint: 'chat.completions',
      route_id: null,
      provider: null,
      status: 'completed',
      error_code: null,
      input_tokens: 1,
      cached_tokens: 0,
      output_tokens: 1,
      reasoning_tokens: 0,
      image_count: 0,
      cost_micros: costMicros,
      time_to_first_token_ms: null,
      latency_ms: 1,
      created_at: 1,
    },
  };
}

const hold = (requestId: string): CreditHold => ({ holdId: `${requestId}#1`, userId: 'usr_1', heldMicros: 100 });

/** A charge writer that records what it was given and answers when the test lets it. */
function createGatedChargeWriter() {
  const written: string[][] = [];
  const gates: Array<{ open: () => void; fail: (error: Error) => void }> = [];
  const writer: ChargeWriter = {
    write: (charges) =>
      new Promise((resolve, reject) => {
        gates.push({
          open: () => {
            written.push(charges.map((item) => item.usage.request_id));
            resolve({ isNew: charges.map(() => true), balances: [] });
          },
          fail: reject,
        });
      }),
  };
  return { writer, written, gates };
}

function startWriter(chargeWriter: ChargeWriter, applied: CommittedCharges[] = [], errors: unknown[] = []) {
  return createSettlementWriter({
    db: undefined as unknown as Database,
    chargeWriter,
    creditHolds: {
      capture: async () => true,
      applyCommitted: async (charges) => {
        applied.push(...charges);
      },
    },
    journalDirectory: directory,
    onError: (error) => errors.push(error),
    retryDelayMs: 5,
  });
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

test('flush waits for the charges settled before it, not for those settled while it waits', async () => {
  const { writer: chargeWriter, written, gates } = createGatedChargeWriter();
  const applied: CommittedCharges[] = [];
  const settlements = startWriter(chargeWriter, applied);
  await settlements.submit({ charge: charge('req_1', 30), hold: hold('req_1'), capturedMicros: 30 });
  let isFlushed = false;
  const flushed = settlements.flush().then(() => {
    isFlushed = true;
  });
  await tick();
  await settlements.submit({ charge: charge('req_2'), hold: hold('req_2'), capturedMicros: 10 });
  assert.equal(gates.length, 1, 'the first group is being written');
  gates[0]?.open();
  await flushed;
  assert.equal(isFlushed, true);
  assert.deepEqual(written, [['req_1']], 'flush did not wait for the charge settled after it');
  assert.deepEqual(applied, [{ userId: 'usr_1', capturedMicros: 30, balance: undefined, holdIds: ['req_1#1'] }]);
  await tick();
  gates[1]?.open();
  await settlements.close();
  assert.deepEqual(written, [['req_1'], ['req_2']]);
  assert.deepEqual(readUnappliedCharges(directory).charges, [], 'everything written: the journal is empty');
});

test('a group the database refuses is written again until it takes it; the charges stay journaled meanwhile', async () => {
  const { writer: chargeWriter, written, gates } = createGatedChargeWriter();
  const errors: unknown[] = [];
  const settlements = startWriter(chargeWriter, [], errors);
  await settlements.submit({ charge: charge('req_x'), hold: hold('req_x'), capturedMicros: 10 });
  const flushed = settlements.flush();
  await tick();
  gates[0]?.fail(new Error('database away'));
  await tick();
  assert.deepEqual(
    readUnappliedCharges(directory).charges.map((item) => item.usage.request_id),
    ['req_x'],
    'still in the journal',
  );
  gates[1]?.open();
  await flushed;
  assert.deepEqual(written, [['req_x']]);
  assert.equal(errors.length, 1);
  await settlements.close();
});

test('closing while the database refuses leaves the charges in the journal for the next start', async () => {
  const { writer: chargeWriter, gates } = createGatedChargeWriter();
  const settlements = startWriter(chargeWriter);
  await settlements.submit({ charge: charge('req_kept'), hold: hold('req_kept'), capturedMicros: 10 });
  const closed = settlements.close();
  await tick();
  gates[0]?.fail(new Error('database away'));
  await closed;
  assert.deepEqual(
    readUnappliedCharges(directory).charges.map((item) => item.usage.request_id),
    ['req_kept'],
  );
});

test('the charges settled in one turn are each journaled (durable) when their submit returns, then written as one group', async () => {
  const { writer: chargeWriter, written, gates } = createGatedChargeWriter();
  const settlements = startWriter(chargeWriter);
  const requestIds = ['req_t1', 'req_t2', 'req_t3'];
  let durableAtReturn = 0;
  await Promise.all(
    requestIds.map(async (requestId) => {
      await settlements.submit({ charge: charge(requestId), hold: hold(requestId), capturedMicros: 10 });
      if (readUnappliedCharges(directory).charges.some((item) => item.usage.request_id === requestId)) {
        durableAtReturn += 1;
      }
    }),
  );
  assert.equal(durableAtReturn, 3);
  const segments = readUnappliedCharges(directory).files;
  assert.equal(segments.length, 1, 'one segment holds all three lines');
  await tick();
  gates[0]?.open();
  await settlements.close();
  assert.deepEqual(written, [requestIds], 'and they were written to the database as one group');
  assert.deepEqual(readUnappliedCharges(directory).charges, []);
});

/** A single-node account of 1,000 micro-USD in a real SQLite database, its credit held in memory. */
async function openAccount() {
  const testDatabase = await createTestDatabase('sqlite');
  const handle = openDatabase(testDatabase.config);
  await migrateToLatest(handle.db);
  await insertUser(handle.db, {
    id: 'usr_1',
    email: 'u1@example.com',
    password_hash: 'x',
    role: 'user',
    created_at: 1,
  });
  await postLedgerTransaction(handle.db, {
    id: 'ltx_welcome',
    idempotencyKey: 'welcome:usr_1',
    kind: 'welcome',
    reason: 'test',
    createdAt: 1,
    entries: [
      { account: userLedgerAccount('usr_1'), amountMicros: 1_000 },
      { account: 'system:welcome', amountMicros: -1_000 },
    ],
  });
  const holds = createMemoryCreditHolds({ db: handle.db });
  let captures = 0;
  const creditHolds = {
    ...holds,
    capture: (...args: Parameters<typeof holds.capture>) => {
      captures += 1;
      return holds.capture(...args);
    },
  };
  const close = async () => {
    await handle.close().catch(() => undefined);
    await testDatabase.drop();
  };
  return { handle, holds, creditHolds, captures: () => captures, close };
}

/** A journal on a full disk: every write fails, as `writeSync` does with ENOSPC. */
function fullDiskJournal(): SettlementJournal {
  return {
    appendLines: () => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    },
    markApplied: () => undefined,
    close: () => undefined,
  };
}

test('a full disk: the charge, its capture already sent, is written to the database before submit returns, once', async () => {
  const account = await openAccount();
  const errors: unknown[] = [];
  try {
    const writer = createSettlementWriter({
      db: account.handle.db,
      chargeWriter: { write: async () => assert.fail('nothing reaches the group writer') },
      creditHolds: account.creditHolds,
      journalDirectory: directory,
      onError: (error) => errors.push(error),
      openJournal: fullDiskJournal,
    });
    const held = await account.holds.reserve({
      userId: 'usr_1',
      holdId: 'req_1',
      desiredMicros: 100,
      minimumMicros: 1,
    });
    assert.ok(held);
    await writer.submit({ charge: charge('req_1', 30), hold: held, capturedMicros: 30 });
    assert.equal(account.captures(), 1, 'captured once, in the same turn as the failed write');
    assert.equal(await account.holds.availableMicros('usr_1'), 970, 'the charge is in the balance, nothing pending');
    const [snapshot] = await listBalanceSnapshots(account.handle.db, ['usr_1']);
    assert.equal(snapshot?.balanceMicros, 970);
    assert.match(String(errors[0]), /ENOSPC/);
    await writer.close();
  } finally {
    await account.close();
  }
});

test('a full disk and a database that fails too: the call is not charged and nothing stays held or pending', async () => {
  const account = await openAccount();
  try {
    const writer = createSettlementWriter({
      db: account.handle.db,
      chargeWriter: { write: async () => assert.fail('nothing reaches the group writer') },
      creditHolds: account.creditHolds,
      journalDirectory: directory,
      onError: () => undefined,
      openJournal: fullDiskJournal,
    });
    const held = await account.holds.reserve({
      userId: 'usr_1',
      holdId: 'req_2',
      desiredMicros: 100,
      minimumMicros: 1,
    });
    assert.ok(held);
    await account.handle.close();
    await assert.rejects(writer.submit({ charge: charge('req_2', 30), hold: held, capturedMicros: 30 }));
    assert.equal(account.captures(), 1);
    assert.equal(await account.holds.availableMicros('usr_1'), 1_000, 'the captured amount is no longer pending');
    await writer.close();
  } finally {
    await account.close();
  }
});

test('the capture is sent in the turn the charge is submitted, before its journal line is written', async () => {
  const linesAtCapture: number[] = [];
  const writer = createSettlementWriter({
    db: undefined as unknown as Database,
    chargeWriter: { write: async (charges) => ({ isNew: charges.map(() => true), balances: [] }) },
    creditHolds: {
      capture: async () => {
        linesAtCapture.push(readUnappliedCharges(directory).charges.length);
        return true;
      },
      applyCommitted: async () => undefined,
    },
    journalDirectory: directory,
    onError: (error) => assert.fail(String(error)),
  });
  const submitted = writer.submit({ charge: charge('req_1'), hold: hold('req_1'), capturedMicros: 10 });
  assert.deepEqual(linesAtCapture, [0], 'sent before the turn ended, so it leaves with the journal write');
  await submitted;
  assert.equal(readUnappliedCharges(directory).charges.length, 1, 'durable when submit returns');
  await writer.close();
});
