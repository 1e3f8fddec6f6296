import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startRoutingFixture, type RoutingFixture } from '../support/routing-fixture.ts';

/** Issue 6 item 5: `x-gateway-route` names the route used, on answers to operator keys only. */
describe('the x-gateway-route header, for operator keys only', () => {
  let fixture: RoutingFixture;
  let operatorKey: string;
  let customerKey: string;
  let routeId: string;

  before(async () => {
    fixture = await startRoutingFixture();
    operatorKey = (await fixture.gateway.createUserWithKey({ role: 'admin', balanceMicros: 10_000_000 })).key;
    customerKey = (await fixture.gateway.createUserWithKey({ balanceMicros: 10_000_000 })).key;
    routeId = (await fixture.addRoute({ model: 'gpt-4o', base_url: fixture.openAiBase() })).id;
  });
  after(() => fixture.close());

  const post = async (input: { key: string; path: string; isStreaming: boolean }) => {
    const isMessages = input.path === '/v1/messages';
    const response = await fetch(`${fixture.gateway.url}${input.path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${input.key}`,
        'content-type': 'application/json',
        ...(isMessages ? { 'anthropic-version': '2023-06-01' } : {}),
      },
      body: JSON.stringify({
        model: 'gpt-4o',
        stream: input.isStreaming,
        messages: [{ role: 'user', content: 'Name three rivers.' }],
        ...(isMessages ? { max_tokens: 256 } : {}),
      }),
    });
    await response.text();
    assert.equal(response.status, 200);
    return response.headers.get('x-gateway-route');
  };

  for (const path of ['/v1/chat/completions', '/v1/messages']) {
    for (const isStreaming of [false, true]) {
      const mode = isStreaming ? 'streamed' : 'not streamed';
      test(`${path}, ${mode}: present with the route id for an admin key, absent for a customer key`, async () => {
        assert.equal(await post({ key: operatorKey, path, isStreaming }), routeId);
        assert.equal(await post({ key: customerKey, path, isStreaming }), null);
      });
    }
  }
});

/**
 * Issue 6 item 5 on a stream opened early: when the first chunk is slow, the headers go out with keep-alives before any
 * route has answered, so the route reaches operator keys as one SSE comment line before the first data event.
 */
describe('the route of a stream opened early for keep-alives, for operator keys only', () => {
  let fixture: RoutingFixture;
  let operatorKey: string;
  let customerKey: string;
  let routeId: string;

  before(async () => {
    fixture = await startRoutingFixture({ KEEPALIVE_INTERVAL_MS: '100' });
    operatorKey = (await fixture.gateway.createUserWithKey({ role: 'admin', balanceMicros: 10_000_000 })).key;
    customerKey = (await fixture.gateway.createUserWithKey({ balanceMicros: 10_000_000 })).key;
    routeId = (await fixture.addRoute({ model: 'gpt-4o', base_url: fixture.openAiBase('delay-first-byte=600') })).id;
  });
  after(() => fixture.close());

  const postStream = async (input: { key: string; path: string }) => {
    const isMessages = input.path === '/v1/messages';
    const response = await fetch(`${fixture.gateway.url}${input.path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${input.key}`,
        'content-type': 'application/json',
        ...(isMessages ? { 'anthropic-version': '2023-06-01' } : {}),
      },
      body: JSON.stringify({
        model: 'gpt-4o',
        stream: true,
        messages: [{ role: 'user', content: 'Name three rivers.' }],
        ...(isMessages ? { max_tokens: 256 } : {}),
      }),
    });
    assert.equal(response.status, 200);
    return { header: response.headers.get('x-gateway-route'), text: await response.text() };
  };

  for (const path of ['/v1/chat/completions', '/v1/messages']) {
    test(`${path}: \`: gateway-route <id>\` before the first data event for an admin key, nothing for a customer`, async () => {
      const operator = await postStream({ key: operatorKey, path });
      assert.equal(operator.header, null, 'the headers went out before the route was known');
      assert.ok(operator.text.startsWith(': keep-alive\n\n'), 'the stream opened early, with keep-alives');
      const comment = `: gateway-route ${routeId}\n\n`;
      const commentIndex = operator.text.indexOf(comment);
      assert.ok(commentIndex > 0, 'the route comes as a comment line');
      assert.equal(operator.text.indexOf(comment, commentIndex + 1), -1, 'once');
      assert.ok(commentIndex < operator.text.search(/^(event|data): /m), 'before the first data event');
      const customer = await postStream({ key: customerKey, path });
      assert.equal(customer.header, null);
      assert.ok(customer.text.startsWith(': keep-alive\n\n'));
      assert.doesNotMatch(customer.text, /gateway-route/, 'a customer never learns the route');
    });
  }
});
