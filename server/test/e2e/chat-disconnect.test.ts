import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { startRoutingFixture, type RoutingFixture } from '../support/routing-fixture.ts';

type StreamStats = { openStreams: number; abortedStreams: number; completedStreams: number };

/** Polls until `isDone` holds (a hang guard caps the wait), then returns the last value. */
async function waitFor<Value>(read: () => Promise<Value>, isDone: (value: Value) => boolean): Promise<Value> {
  let value = await read();
  for (let attempt = 0; attempt < 200 && !isDone(value); attempt += 1) {
    await sleep(50);
    value = await read();
  }
  return value;
}

/** Issue 3 item 6: when the client disconnects, the upstream request is aborted at once; DESIGN: billed for what was generated. */
describe('a client that disconnects', () => {
  let fixture: RoutingFixture;
  let key: string;
  let userId: string;

  before(async () => {
    fixture = await startRoutingFixture({ KEEPALIVE_INTERVAL_MS: '100' });
    ({ key, userId } = await fixture.gateway.createUserWithKey({ balanceMicros: 10_000_000 }));
  });
  after(() => fixture.close());
  // Every charge (and no charge) leaves the ledger balanced: double entry, cached balances equal to their entries.
  afterEach(() => assertLedgerBalanced(fixture.gateway.gateway.database.db));

  const db = () => fixture.gateway.gateway.database.db;
  const balance = () => sumLedgerAccount(db(), userLedgerAccount(userId));
  const stats = async () => (await (await fetch(`${fixture.simulatorUrl}/_sim/stats`)).json()) as StreamStats;
  const post = (body: object, signal: AbortSignal) =>
    fetch(`${fixture.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
  const recordOf = (requestId: string) =>
    waitFor(
      () => findUsageRecord(db(), requestId),
      (record) => record !== undefined,
    );

  test('after the first chunk: the upstream stream is aborted at once, and only what was delivered is billed', async () => {
    await fixture.addRoute({ model: 'gpt-4o', base_url: fixture.openAiBase() });
    const [statsBefore, balanceBefore] = [await stats(), await balance()];
    const controller = new AbortController();
    const response = await post(
      { model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'Go on [sim:words=2000]' }] },
      controller.signal,
    );
    const requestId = response.headers.get('x-request-id') ?? '';
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('data: {')) text += new TextDecoder().decode((await reader.read()).value);
    assert.equal((await stats()).openStreams, statsBefore.openStreams + 1, 'the upstream stream is open');
    controller.abort();

    const statsAfter = await waitFor(stats, (value) => value.abortedStreams > statsBefore.abortedStreams);
    assert.equal(statsAfter.abortedStreams, statsBefore.abortedStreams + 1, 'the simulator saw the abort');
    assert.equal(statsAfter.openStreams, statsBefore.openStreams, 'no upstream stream left open');
    assert.equal(statsAfter.completedStreams, statsBefore.completedStreams, 'the upstream did not run to its end');
    const record = await recordOf(requestId);
    assert.equal(record?.status, 'interrupted');
    assert.equal(record.error_code, 'client_disconnected');
    assert.ok(record.output_tokens < 2000, `${record.output_tokens} output tokens billed of 2000`);
    assert.equal(balanceBefore - (await balance()), record.cost_micros);
  });

  test('before the first chunk: the silent upstream stream is aborted, and the call is billed its input only', async () => {
    await fixture.addRoute({ model: 'gpt-4.1', base_url: fixture.openAiBase('stall-after=0') });
    const [statsBefore, balanceBefore] = [await stats(), await balance()];
    const controller = new AbortController();
    const response = await post(
      { model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'Think hard.' }] },
      controller.signal,
    );
    const requestId = response.headers.get('x-request-id') ?? '';
    const open = await waitFor(stats, (value) => value.openStreams > statsBefore.openStreams);
    assert.equal(open.openStreams, statsBefore.openStreams + 1, 'the upstream sent its headers and stays silent');
    controller.abort();

    const statsAfter = await waitFor(stats, (value) => value.abortedStreams > statsBefore.abortedStreams);
    assert.equal(statsAfter.abortedStreams, statsBefore.abortedStreams + 1);
    assert.equal(statsAfter.openStreams, statsBefore.openStreams);
    const record = await recordOf(requestId);
    assert.equal(record?.status, 'interrupted');
    assert.equal(record.error_code, 'client_disconnected');
    assert.ok(record.input_tokens > 0, 'the prompt the vendor read is billed');
    assert.equal(record.output_tokens, 0, 'no output was delivered');
    assert.ok(record.cost_micros > 0);
    assert.equal(balanceBefore - (await balance()), record.cost_micros, 'the ledger debited exactly that');
  });

  test('a non-streamed call: the upstream request is aborted, and the call is billed its input only', async () => {
    const slow = await fixture.addRoute({
      model: 'gpt-4o-mini',
      base_url: fixture.openAiBase('delay-first-byte=30000'),
    });
    const inFlight = async () => (await fixture.listRoutes()).find((route) => route.id === slow.id)?.health.in_flight;
    const [requestsBefore, balanceBefore] = [await fixture.upstreamRequests(), await balance()];
    const controller = new AbortController();
    const pending = post({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello.' }] }, controller.signal);
    await waitFor(fixture.upstreamRequests, (count) => count > requestsBefore);
    assert.equal(await inFlight(), 1, 'the upstream is working on it (it answers after 30 s)');
    controller.abort();
    await assert.rejects(pending, { name: 'AbortError' });
    assert.equal(await waitFor(inFlight, (count) => count === 0), 0, 'the upstream call was given up at once');

    const records = await waitFor(
      () =>
        db()
          .selectFrom('usage_records')
          .selectAll()
          .where('user_id', '=', userId)
          .where('model_id', '=', 'gpt-4o-mini')
          .execute(),
      (rows) => rows.length > 0,
    );
    assert.equal(records.length, 1);
    const [record] = records;
    assert.equal(record?.status, 'interrupted');
    assert.equal(record.error_code, 'client_disconnected');
    assert.equal(record.route_id, null, 'no route answered');
    assert.ok(record.input_tokens > 0 && record.output_tokens === 0);
    assert.ok(record.cost_micros > 0);
    assert.equal(balanceBefore - (await balance()), record.cost_micros);
  });
});
