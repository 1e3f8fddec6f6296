import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, test } from 'node:test';
import { openDatabase } from '../../src/db/database.ts';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { readStream } from '../support/gateway-process.ts';
import { setUpSingleSqliteNode } from '../support/single-sqlite-node.ts';

/**
 * Issue 19: `/v1/responses` streams checkpoint what they delivered, web-search rounds included, so a gateway killed
 * with `kill -9` mid-stream bills them when it starts again (a single SQLite node: its local checkpoint file).
 */
const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

type CutStream = { requestId: string | null; text: string };

/** A streamed Response that searches the web first, then writes a long answer (the sandbox: a word every 15 ms). */
async function streamResponse(url: string, key: string, onData: (text: string) => void): Promise<CutStream> {
  const response = await fetch(`${url}/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'gpt-4o-mini',
      stream: true,
      tools: [{ type: 'web_search' }],
      input: 'What causes ocean tides? [sim:words=600]',
    }),
  });
  const requestId = response.headers.get('x-request-id');
  return { requestId, text: await readStream(response, onData) };
}

/** The answer text the client received: the `response.output_text.delta` events' deltas. */
function deliveredText(streamText: string): string {
  let text = '';
  for (const match of streamText.matchAll(/"type":"response\.output_text\.delta"[^\n]*?"delta":"((?:[^"\\]|\\.)*)"/g)) {
    text += match[1] ?? '';
  }
  return text;
}

test('kill -9 mid /v1/responses stream (after a web search round): the restart bills what was delivered, once', async () => {
  const { config, key, start } = await setUpSingleSqliteNode({
    email: 'r@example.com',
    folderPrefix: 'responses-crash-',
    cleanups,
  });
  const first = await start();
  // What each client has received so far, as it arrives.
  const texts: string[] = ['', '', ''];
  const streams = texts.map((_, index) => streamResponse(first.url, key, (text) => (texts[index] = text)));
  // Text arrives only after the search round; then each stream delivers a while before the kill.
  for (let waited = 0; waited < 30_000; waited += 100) {
    if (texts.every((text) => deliveredText(text).length > 200)) break;
    await sleep(100);
  }
  await sleep(400);
  first.gateway.child.kill('SIGKILL');
  const cut = await Promise.all(streams);
  await first.gateway.exited;
  assert.ok(
    cut.every((result) => deliveredText(result.text).length > 200 && result.text.includes('web_search_call')),
    'every stream searched, then delivered answer text',
  );
  assert.ok(
    cut.every((result) => !result.text.includes('response.completed')),
    'all were cut before they completed',
  );

  const restarted = await start();
  assert.match(restarted.gateway.output(), /billed the streams a stopped process had delivered/);
  const handle = openDatabase(config.database);
  cleanups.push(() => handle.close());
  const requestIds = cut.map((result) => result.requestId ?? '');
  const records = await handle.db
    .selectFrom('usage_records')
    .selectAll()
    .where('request_id', 'in', requestIds)
    .execute();
  assert.equal(records.length, 3, 'every cut stream is billed once, at the restart');
  for (const record of records) {
    assert.equal(record.endpoint, 'responses');
    assert.equal(record.status, 'interrupted');
    assert.equal(record.error_code, 'gateway_node_lost');
    assert.ok(record.cost_micros > 0);
  }
  const received = cut.reduce((sum, result) => sum + Math.ceil(Buffer.byteLength(deliveredText(result.text)) / 4), 0);
  const billed = records.reduce((sum, record) => sum + record.output_tokens, 0);
  console.log(`kill -9 mid /v1/responses: ${received} answer tokens received, ${billed} output tokens billed`);
  // The bound: at most the last 250 ms of each stream's output goes unbilled (plus the size estimate's rounding).
  assert.ok(billed >= received * 0.7, `billed ${billed} of ${received} delivered tokens`);
  const charged = records.reduce((sum, record) => sum + record.cost_micros, 0);
  const ledgerMicros = await sumLedgerAccount(handle.db, userLedgerAccount(records[0]?.user_id ?? ''));
  assert.equal(5_000_000 - ledgerMicros, charged, 'the ledger debited exactly the checkpointed charges');
  await assertLedgerBalanced(handle.db);
});
