import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import type { ChargeWriter } from '../db/charge-writer.ts';
import type { Database } from '../db/database.ts';
import { readUnappliedCharges, type JournaledCharge } from '../db/settlement-journal.ts';
import type { CommittedCharges, CreditHold } from './credit-holds.ts';
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
