import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { openDatabase } from '../../src/db/database.ts';
import { readStream } from '../support/gateway-process.ts';
import {
  addSimulatorRoute,
  createFaultAccounts,
  runBurst,
  type CallOutcome,
  type FaultAccount,
} from './fault-burst.ts';
import { startFaultNodes, startFaultServices, type FaultNodes, type FaultServices } from './fault-cluster.ts';
import { checkMoney, holdLeaseMs, waitForHoldsReleased } from './fault-money.ts';

/**
 * The credit fence (docs/billing.md, "Holds that survive a fault") across OS processes: a long stream on the node
 * behind the cuttable Redis proxy, on an account whose balance covers little more than that stream's hold; Redis is
 * cut, another node reaps the cut-off one and then spends what the reap freed. Without the fence the stream's final
 * charge would land after that spending and take the balance below zero.
 */
let services: FaultServices;
let cluster: FaultNodes;
before(async () => {
  services = await startFaultServices();
  await addSimulatorRoute(services);
  cluster = await startFaultNodes(services);
});
after(async () => {
  await cluster?.stop();
  await services?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The fence's margin (billing/start-credit-fence.ts): the stream must end this long before the lease runs out. */
const fenceMarginMs = 3_000;

/** 400 words at 40 ms each (16 s, longer than the lease); resolves once content flows, with the stream's end. */
async function startLongStream(url: string, account: FaultAccount) {
  let hasContent = false;
  const ended = fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 800,
      messages: [{ role: 'user', content: 'Fence long stream [sim:words=400]' }],
    }),
  }).then(async (response) => {
    assert.equal(response.status, 200);
    const text = await readStream(response, (soFar) => (hasContent ||= soFar.includes('"content":"')));
    return { text, endedAtMs: performance.now() };
  });
  for (let waited = 0; !hasContent && waited < 20_000; waited += 10) await sleep(10);
  assert.ok(hasContent, 'the long stream delivers content');
  return { ended };
}

/** The text the client received, from the stream's content deltas. */
function deliveredText(text: string): string {
  return [...text.matchAll(/"content":"((?:[^"\\]|\\.)*)"/g)].map((match) => JSON.parse(`"${match[1]}"`)).join('');
}

test('a node cut off from Redis past its lease fences its stream: billed what it delivered, once, and no balance below zero', async (t) => {
  // FAULT_LOGS_DIR keeps each node's log, to read why a step failed.
  t.after(() => {
    const logsDir = process.env['FAULT_LOGS_DIR'];
    if (!logsDir) return;
    for (const node of cluster.nodes)
      writeFileSync(path.join(logsDir, `credit-fence-${node.name}.log`), node.process.output());
  });
  const [account] = await createFaultAccounts(services, { prefix: 'fence', count: 1, balanceUsd: '0.0006' });
  const cutOff = cluster.nodes[2]!;
  const spender = cluster.nodes[0]!;
  const stream = await startLongStream(cutOff.url, account!);
  // Its delivery checkpoint (every 250 ms) reaches Redis before the cut.
  await sleep(500);
  const cutAtMs = performance.now();
  await cluster.redisProxy.cut();
  const { text, endedAtMs } = await stream.ended;
  const requestId = /"id":"chatcmpl-([^"]+)"/.exec(text)?.[1];
  assert.ok(!text.includes('[DONE]'), 'the stream was cut, not finished');
  assert.ok(
    endedAtMs - cutAtMs < holdLeaseMs - fenceMarginMs + 1_500,
    `cut ${Math.round(endedAtMs - cutAtMs)} ms after Redis was: before the lease could run out`,
  );

  // Another node reaps the cut-off one (its lease ran out), then the account spends what that freed there.
  assert.equal(await waitForHoldsReleased(spender.url, [account!]), 0, 'the reap freed the hold');
  const spent: CallOutcome[] = [];
  for (let index = 0; index < 40 && spent.at(-1)?.status !== 402; index += 1) {
    spent.push(
      ...(await runBurst({ nodes: [spender], accounts: [account!], count: 1, spacingMs: 0, openStreams: new Map() })),
    );
  }
  assert.equal(spent.at(-1)?.status, 402, 'the account spent all it had left on the other node');
  await cluster.redisProxy.heal();
  await sleep(2_000);

  const outcomes: CallOutcome[] = [
    ...spent,
    { node: cutOff.name, isStream: true, status: 200, requestId, costUsd: undefined, deliveredChunks: 1 },
  ];
  const report = await checkMoney({ postgresUrl: services.postgresUrl, accounts: [account!], outcomes, heldMicros: 0 });
  process.stdout.write(`credit fence: ${JSON.stringify({ ...report, cutAfterMs: Math.round(endedAtMs - cutAtMs) })}\n`);
  assert.deepEqual(report.broken, [], 'no money rule broken (balance, ledger, every completed call charged once)');
  assert.ok(report.lowestBalanceUsd >= 0, 'no balance below zero');
  assert.equal(report.superseded, 0, "the final charge was in the database before the reaper's checkpoint");

  const database = openDatabase({ kind: 'postgres', url: services.postgresUrl });
  try {
    const record = await database.db
      .selectFrom('usage_records')
      .select(['status', 'output_tokens', 'cost_micros'])
      .where('request_id', '=', requestId ?? '')
      .executeTakeFirstOrThrow();
    const debits = await database.db
      .selectFrom('ledger_transactions')
      .select('idempotency_key')
      .where('idempotency_key', 'like', `usage:${requestId}%`)
      .execute();
    assert.equal(record.status, 'interrupted');
    assert.deepEqual(
      debits.map((debit) => debit.idempotency_key),
      [`usage:${requestId}`],
      'charged once',
    );
    // Output is billed from the bytes written to the client (4 a token); the last chunk written as the connection
    // was cut may not have reached it.
    const receivedTokens = Math.ceil(Buffer.byteLength(deliveredText(text)) / 4);
    process.stdout.write(`credit fence: received ${receivedTokens} tokens, billed ${record.output_tokens}\n`);
    assert.ok(record.output_tokens >= receivedTokens, 'billed at least what the client received');
    assert.ok(record.output_tokens <= receivedTokens + 4, 'and at most one word more');
  } finally {
    await database.close();
  }
  assert.match(cutOff.process.output(), /credit fence/, 'the node logged its fence');
});
