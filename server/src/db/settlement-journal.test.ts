import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import {
  claimJournalDirectory,
  openSettlementJournal,
  readUnappliedCharges,
  removeJournalFiles,
  type JournaledCharge,
} from './settlement-journal.ts';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'settlement-journal-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function charge(requestId: string): JournaledCharge {
  return {
    ledger: {
      id: `ltx_${requestId}`,
      idempotencyKey: `usage:${requestId}`,
      kind: 'usage',
      reason: 'chat.completions gpt-4o-mini',
      createdAt: 5,
      entries: [
        { account: 'user:usr_1', amountMicros: -42 },
        { account: 'system:revenue', amountMicros: 42 },
      ],
    },
    usage: {
      request_id: requestId,
      user_id: 'usr_1',
      api_key_id: 'key_1',
      model_id: 'gpt-4o-mini',
      endpoint: 'chat.completions',
      route_id: 'route_1',
      provider: 'openai',
      status: 'completed',
      error_code: null,
      input_tokens: 3,
      cached_tokens: 0,
      output_tokens: 4,
      reasoning_tokens: 0,
      image_count: 0,
      cost_micros: 42,
      time_to_first_token_ms: null,
      latency_ms: 9,
      created_at: 5,
    },
  };
}

/** A charge as the settlement writer hands it to the journal: serialised, without its newline. */
const line = (requestId: string) => JSON.stringify(charge(requestId));

const segmentNames = () => readdirSync(directory).filter((name) => name.endsWith('.ndjson'));

test('an appended charge is on disk at once, and a finished segment is deleted once all of it is applied', () => {
  const journal = openSettlementJournal(directory, { maxSegmentBytes: 1000 });
  const first = journal.appendLines([line('req_1')]);
  assert.deepEqual(readUnappliedCharges(directory).charges, [charge('req_1')]);
  const second = journal.appendLines([line('req_2')]);
  assert.equal(second, first, 'still the first segment');
  const third = journal.appendLines([line('req_3')]);
  assert.notEqual(third, first, 'past the size limit a new segment starts');
  assert.equal(segmentNames().length, 2);
  journal.markApplied(first, 1);
  assert.equal(segmentNames().length, 2, 'a segment with a charge not yet applied stays');
  journal.markApplied(first, 1);
  assert.equal(segmentNames().length, 1, 'the finished segment is gone');
  journal.markApplied(third, 1);
  journal.close();
  assert.deepEqual(segmentNames(), [], 'closing with everything applied leaves no file');
});

test('several charges appended in one write are one line each, counted each', () => {
  const journal = openSettlementJournal(directory);
  const segment = journal.appendLines([line('req_a'), line('req_b'), line('req_c')]);
  assert.equal(segment.appended, 3);
  assert.deepEqual(readUnappliedCharges(directory).charges, [charge('req_a'), charge('req_b'), charge('req_c')]);
  journal.markApplied(segment, 3);
  journal.close();
  assert.deepEqual(segmentNames(), [], 'all three applied: nothing left to replay');
});

test('replay reads every segment in order, skips a torn last line, and removes what it read', () => {
  const journal = openSettlementJournal(directory, { maxSegmentBytes: 1000 });
  for (const requestId of ['req_a', 'req_b', 'req_c']) journal.appendLines([line(requestId)]);
  const lastFile = path.join(directory, segmentNames().sort().at(-1) ?? '');
  appendFileSync(lastFile, JSON.stringify(charge('req_torn')).slice(0, 80));
  const { charges, files } = readUnappliedCharges(directory);
  assert.deepEqual(
    charges.map((item) => item.usage.request_id),
    ['req_a', 'req_b', 'req_c'],
  );
  removeJournalFiles(files);
  assert.deepEqual(segmentNames(), []);
});

test('a line that is not a charge is skipped, not trusted', () => {
  writeFileSync(path.join(directory, 'settlements-1.ndjson'), '{"ledger":{"id":3}}\n');
  assert.deepEqual(readUnappliedCharges(directory).charges, []);
});

test('the journal has one owner: a second claim in a live process is refused, a dead owner’s lock is taken over', () => {
  const lock = claimJournalDirectory(directory);
  assert.throws(() => claimJournalDirectory(directory), /needs a DATA_DIR of its own/);
  lock.release();
  const lockPath = path.join(directory, 'owner.pid');
  writeFileSync(lockPath, '2147483646 12345\n');
  claimJournalDirectory(directory).release();
  // This process's id with another start time: the id was reused after the owner died (a restarted container).
  writeFileSync(lockPath, `${process.pid} 1\n`);
  const taken = claimJournalDirectory(directory);
  assert.match(readFileSync(lockPath, 'utf8'), new RegExp(`^${process.pid} \\d+\\n$`));
  taken.release();
});
