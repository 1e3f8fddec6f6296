import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { startRoutingFixture, type RoutingFixture } from '../support/routing-fixture.ts';

const keepAlive = ': keep-alive\n\n';

/** Reads a whole streamed answer as text, with the response's status and headers. */
async function postStream(
  fixture: RoutingFixture,
  input: { path: string; body: object; headers?: Record<string, string> },
): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(`${fixture.gateway.url}${input.path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${fixture.client.apiKey}`,
      'content-type': 'application/json',
      ...input.headers,
    },
    body: JSON.stringify(input.body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const firstDataIndex = (text: string) => text.search(/^(event|data): /m);
const chatBody = (model: string, content = 'Name three rivers.') => ({
  model,
  stream: true,
  messages: [{ role: 'user', content }],
});

describe('keep-alives while the upstream is silent, and the first chunk within the first-byte timeout (issue 3)', () => {
  let fixture: RoutingFixture;

  before(async () => {
    fixture = await startRoutingFixture({ KEEPALIVE_INTERVAL_MS: '100' });
  });
  after(() => fixture.close());
  // Every charge (and no charge) leaves the ledger balanced: double entry, cached balances equal to their entries.
  afterEach(() => assertLedgerBalanced(fixture.gateway.gateway.database.db));

  test('a slow first chunk: the headers and keep-alive comments arrive before the first data event', async () => {
    await fixture.addRoute({ model: 'gpt-4o-mini', base_url: fixture.openAiBase('delay-first-byte=1200') });
    const { status, headers, text } = await postStream(fixture, {
      path: '/v1/chat/completions',
      body: chatBody('gpt-4o-mini'),
    });
    assert.equal(status, 200);
    assert.match(headers.get('content-type') ?? '', /^text\/event-stream/);
    const keepAliveIndex = text.indexOf(keepAlive);
    assert.ok(keepAliveIndex === 0, 'the stream opens with a keep-alive comment');
    assert.ok(keepAliveIndex < firstDataIndex(text), 'keep-alives come before the first data event');
    assert.ok(text.endsWith('data: [DONE]\n\n'));
    assert.equal(headers.get('x-gateway-route'), null, 'a customer key never sees the route');
  });

  test('/v1/messages: keep-alives while Anthropic is silent after message_start, then failover to a healthy route', async () => {
    const anthropicBase = (fault?: string) =>
      fault === undefined
        ? `${fixture.simulatorUrl}/anthropic`
        : `${fixture.simulatorUrl}/_fault/${encodeURIComponent(fault)}/anthropic`;
    const route = { model: 'claude-haiku-4-5', provider: 'anthropic' as const, upstream_model: 'claude-haiku-4-5' };
    const silent = await fixture.addRoute({
      ...route,
      priority: 1,
      base_url: anthropicBase('stall-after=1'),
      first_byte_timeout_ms: 1_000,
    });
    const healthy = await fixture.addRoute({ ...route, priority: 2, base_url: anthropicBase() });
    const upstreamBefore = await fixture.upstreamRequests();
    const { status, headers, text } = await postStream(fixture, {
      path: '/v1/messages',
      headers: { 'anthropic-version': '2023-06-01' },
      body: { ...chatBody('claude-haiku-4-5'), max_tokens: 512 },
    });
    assert.equal(status, 200);
    assert.match(headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.ok(text.startsWith(keepAlive), 'keep-alive comments before message_start');
    assert.ok(text.indexOf(keepAlive) < text.indexOf('event: message_start'));
    assert.ok(text.trimEnd().endsWith('data: {"type":"message_stop"}'), 'the answer completed');
    assert.ok(!text.includes('event: error'));
    assert.equal((await fixture.upstreamRequests()) - upstreamBefore, 2, 'the silent route was failed over');
    const messageId = /"id":"(msg_[^"]+)"/.exec(text)?.[1] ?? '';
    const record = await findUsageRecord(fixture.gateway.gateway.database.db, messageId.replace(/^msg_/, 'req_'));
    assert.equal(record?.route_id, healthy.id);
    const listed = (await fixture.listRoutes()).find((candidate) => candidate.id === silent.id);
    assert.equal(listed?.health.failures, 1, 'the silent route is charged with a failure');
  });

  test('a stream that falls silent after its first chunks carries keep-alives until its idle timeout', async () => {
    await fixture.addRoute({
      model: 'gpt-4.1-mini',
      base_url: fixture.openAiBase('stall-after=3'),
      idle_timeout_ms: 800,
    });
    const { status, text } = await postStream(fixture, {
      path: '/v1/chat/completions',
      body: chatBody('gpt-4.1-mini'),
    });
    assert.equal(status, 200);
    const lastData = text.lastIndexOf('data: {"id"');
    assert.ok(lastData > 0, 'chunks arrived');
    assert.ok(text.indexOf(keepAlive, lastData) > lastData, 'keep-alives after the last chunk while silent');
    assert.match(text.trimEnd().split('\n\n').at(-1) ?? '', /^data: \{"error":/, 'ends with one error event');
  });

  test('an upstream that sends its headers and then nothing is cut at its first-byte timeout and failed over', async () => {
    const silent = await fixture.addRoute({
      model: 'gpt-4.1',
      priority: 1,
      base_url: fixture.openAiBase('stall-after=0'),
      first_byte_timeout_ms: 500,
    });
    const healthy = await fixture.addRoute({ model: 'gpt-4.1', priority: 2, base_url: fixture.openAiBase() });
    const upstreamBefore = await fixture.upstreamRequests();
    const { status, text } = await postStream(fixture, { path: '/v1/chat/completions', body: chatBody('gpt-4.1') });
    assert.equal(status, 200);
    assert.ok(text.startsWith(keepAlive), 'keep-alives while the first route was silent');
    assert.ok(text.endsWith('data: [DONE]\n\n'), 'the healthy route answered');
    assert.ok(!text.includes('"error"'));
    assert.equal((await fixture.upstreamRequests()) - upstreamBefore, 2);
    const id = /"id":"(chatcmpl-[^"]+)"/.exec(text)?.[1] ?? '';
    assert.equal(await fixture.routeOf(id), healthy.id);
    const listed = (await fixture.listRoutes()).find((candidate) => candidate.id === silent.id);
    assert.equal(listed?.health.failures, 1);
  });
});

describe('the route deadline bounds the wait for the first chunk (issue 3)', () => {
  let fixture: RoutingFixture;

  before(async () => {
    fixture = await startRoutingFixture({ KEEPALIVE_INTERVAL_MS: '100', ROUTE_DEADLINE_MS: '800' });
  });
  after(() => fixture.close());
  // Every charge (and no charge) leaves the ledger balanced: double entry, cached balances equal to their entries.
  afterEach(() => assertLedgerBalanced(fixture.gateway.gateway.database.db));

  test('a silent stream past the deadline ends with one in-stream 504 error, and nothing is charged', async () => {
    await fixture.addRoute({ model: 'o3', base_url: fixture.openAiBase('stall-after=0') });
    const upstreamBefore = await fixture.upstreamRequests();
    const balance = () => sumLedgerAccount(fixture.gateway.gateway.database.db, userLedgerAccount(fixture.userId));
    const balanceBefore = await balance();
    const { status, text } = await postStream(fixture, { path: '/v1/chat/completions', body: chatBody('o3') });
    assert.equal(status, 200, 'the headers went out with the first keep-alive');
    assert.ok(text.startsWith(keepAlive));
    const events = text.trimEnd().split('\n\n');
    const errors = events.filter((event) => event.startsWith('data: {"error"'));
    assert.equal(errors.length, 1);
    assert.equal(events.at(-1), errors[0], 'the error is the last event');
    const error = (JSON.parse(errors[0]!.slice('data: '.length)) as { error: { code: string; type: string } }).error;
    assert.equal(error.code, 'upstream_timeout');
    assert.equal(error.type, 'server_error');
    assert.equal((await fixture.upstreamRequests()) - upstreamBefore, 1);
    assert.equal(await balance(), balanceBefore);
  });
});
