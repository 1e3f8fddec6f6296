import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { insertApiKey } from '../server/src/db/api-keys.ts';
import { createChargeWriter } from '../server/src/db/charge-writer.ts';
import { openDatabase } from '../server/src/db/database.ts';
import { userLedgerAccount } from '../server/src/db/ledger.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import type { JournaledCharge } from '../server/src/db/settlement-journal.ts';
import { insertUser } from '../server/src/db/users.ts';
import { cryptoIds } from '../server/src/lib/ids.ts';
import { buildUsageRecord } from '../server/test/support/usage-record-builder.ts';
import { walFramesByTree } from './wal-frames-by-tree.ts';

/**
 * The SQLite writer thread's CPU time per charge, alone: the gateway's charge writer writes groups of charges shaped
 * like a chat call's (a ledger transaction with two entries, a usage row, the balance and the key's spend) through
 * the thread, one group at a time, and the thread's CPU is read from /proc. Without HTTP, the load generator or the
 * group window, the figure depends neither on the machine's load nor on how many calls a group gathers, so variants
 * compare run against run. Not part of `npm run bench`; docs/benchmarks.md.
 *
 *   npm exec -- node bench/probe-writer-thread.ts [--charges N] [--group N] [--prefill N] [--random-ids] [--kind-index]
 *     [--wal-frames]
 *
 * `--prefill` charges are written before the measure, so the tables are not empty. `--random-ids` makes the request
 * and ledger transaction ids random, as before decision 1890; `--kind-index` puts back the index migration 0130 drops.
 * `--wal-frames` also prints the pages each commit wrote to the log, by table and index (no checkpoint runs then).
 */
const { values } = parseArgs({
  options: {
    charges: { type: 'string', default: '20000' },
    group: { type: 'string', default: '10' },
    prefill: { type: 'string', default: '20000' },
    'random-ids': { type: 'boolean', default: false },
    'kind-index': { type: 'boolean', default: false },
    'wal-frames': { type: 'boolean', default: false },
  },
});
const groupSize = Number(values.group);
const userId = 'usr_writer_probe';
const keyId = 'key_writer_probe';
const newId = values['random-ids'] ? cryptoIds.newId : cryptoIds.newTimeOrderedId;

const directory = mkdtempSync(path.join(tmpdir(), 'writer-probe-'));
const databasePath = path.join(directory, 'gateway.db');
const errors: string[] = [];
const handle = openDatabase(
  { kind: 'sqlite', filePath: databasePath },
  {
    writerThread: {
      checkpointIntervalMs: values['wal-frames'] ? 3_600_000 : 1000,
      onError: (message) => errors.push(message),
    },
  },
);
try {
  await migrateToLatest(handle.db);
  if (values['kind-index']) {
    await handle.db.schema
      .createIndex('ledger_transactions_kind_created')
      .ifNotExists()
      .on('ledger_transactions')
      .columns(['kind', 'created_at'])
      .execute();
  }
  await insertUser(handle.db, {
    id: userId,
    email: 'probe@example.com',
    password_hash: 'x',
    role: 'user',
    created_at: 1,
  });
  await insertApiKey(handle.db, newKey());
  const writer = createChargeWriter({ db: handle.settlementDb, writerThread: handle.writerThread });
  const write = async (count: number) => {
    for (let written = 0; written < count; written += groupSize) {
      const charges = Array.from({ length: Math.min(groupSize, count - written) }, newCharge);
      await writer.write(
        charges,
        charges.map((charge) => JSON.stringify(charge)),
      );
    }
  };
  await write(Number(values.prefill));
  const walBytesBefore = statSync(`${databasePath}-wal`).size;
  const cpuBefore = writerThreadCpuMs();
  const startedAt = performance.now();
  await write(Number(values.charges));
  const elapsedMs = performance.now() - startedAt;
  const perCharge = ((writerThreadCpuMs() - cpuBefore) / Number(values.charges)) * 1000;
  const rows = await handle.db
    .selectFrom('usage_records')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  const expected = Number(values.prefill) + Number(values.charges);
  if (Number(rows.count) !== expected) throw new Error(`${rows.count} usage rows written, ${expected} expected`);
  const variant = `${values['random-ids'] ? 'random' : 'time-ordered'} ids${values['kind-index'] ? ', kind index' : ''}`;
  console.log(
    `writer thread (${variant}): ${Math.round(perCharge)} µs of CPU per charge over ${values.charges} charges in ` +
      `groups of ${groupSize} after ${values.prefill} (${Math.round(elapsedMs)} ms)`,
  );
  if (values['wal-frames']) {
    const log = walFramesByTree({ databasePath, fromByte: walBytesBefore });
    console.log(`${log.frames} pages written to the log in ${log.commits} commits; per commit:`);
    for (const [name, frames] of log.byTree) console.log(`  ${frames.toFixed(2).padStart(6)}  ${name}`);
  }
} finally {
  await handle.close();
  rmSync(directory, { recursive: true, force: true });
}
if (errors.length > 0) throw new Error(errors.join('\n'));

function newCharge(): JournaledCharge {
  const requestId = newId('req_');
  const createdAt = Date.now();
  const costMicros = 1234;
  return {
    ledger: {
      id: newId('ltx_'),
      idempotencyKey: `usage:${requestId}`,
      kind: 'usage',
      reason: 'chat.completions bench-model',
      createdAt,
      entries: [
        { account: userLedgerAccount(userId), amountMicros: -costMicros },
        { account: 'system:revenue', amountMicros: costMicros },
      ],
    },
    usage: buildUsageRecord({
      request_id: requestId,
      user_id: userId,
      api_key_id: keyId,
      model_id: 'bench-model',
      route_id: 'rte_writer_probe',
      input_tokens: 12,
      output_tokens: 24,
      cost_micros: costMicros,
      upstream_cost_micros: 1000,
      time_to_first_token_ms: null,
      latency_ms: 1,
      created_at: createdAt,
    }),
  };
}

function newKey(): Parameters<typeof insertApiKey>[1] {
  return {
    id: keyId,
    user_id: userId,
    name: 'probe',
    key_hash: 'x',
    prefix: 'sk-probe',
    last_four: 'abcd',
    created_at: 1,
    expires_at: null,
    spend_cap_micros: null,
    allowed_models: null,
    requests_per_minute: null,
    tokens_per_minute: null,
  };
}

/** User plus system CPU time of this process's Node worker threads (the SQLite writer), in milliseconds. */
function writerThreadCpuMs(): number {
  let ticks = 0;
  for (const threadId of readdirSync('/proc/self/task')) {
    if (readFileSync(`/proc/self/task/${threadId}/comm`, 'utf8').trim() !== 'WorkerThread') continue;
    const fields = readFileSync(`/proc/self/task/${threadId}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}
