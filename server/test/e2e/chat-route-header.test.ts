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
