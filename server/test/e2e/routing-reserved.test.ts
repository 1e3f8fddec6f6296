import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { startRoutingFixture, type RoutingFixture } from '../support/routing-fixture.ts';

const ask = [{ role: 'user' as const, content: 'Name three rivers.' }];

/** Issue 6 item 1: a route reserved for accounts (a dedicated channel) serves them, and only them. */
describe('routes reserved for an account', () => {
  let fixture: RoutingFixture;
  let owner: OpenAI;
  let ownerId: string;
  let other: OpenAI;

  before(async () => {
    fixture = await startRoutingFixture();
    const newClient = async () => {
      const user = await fixture.gateway.createUserWithKey({ balanceMicros: 10_000_000 });
      return {
        id: user.userId,
        client: new OpenAI({ apiKey: user.key, baseURL: `${fixture.gateway.url}/v1`, maxRetries: 0 }),
      };
    };
    ({ id: ownerId, client: owner } = await newClient());
    ({ client: other } = await newClient());
  });
  after(() => fixture.close());

  test('the owner is served by its reserved route; other accounts never are', async () => {
    const shared = await fixture.addRoute({ model: 'gpt-4o', priority: 1, base_url: fixture.openAiBase() });
    const reserved = await fixture.addRoute({
      model: 'gpt-4o',
      priority: 50,
      base_url: fixture.openAiBase(),
      reserved_for: [ownerId],
    });
    for (let call = 0; call < 4; call += 1) {
      const mine = await owner.chat.completions.create({ model: 'gpt-4o', messages: ask });
      assert.equal(await fixture.routeOf(mine.id), reserved.id, 'the owner prefers its dedicated channel');
      const theirs = await other.chat.completions.create({ model: 'gpt-4o', messages: ask });
      assert.equal(await fixture.routeOf(theirs.id), shared.id, 'another account never uses it');
    }
    const stream = await owner.chat.completions.create({ model: 'gpt-4o', messages: ask, stream: true });
    let id = '';
    for await (const chunk of stream) id = chunk.id;
    assert.equal(await fixture.routeOf(id), reserved.id, 'streamed too');
  });

  test('a model whose only route is reserved answers its owner and does not exist for others: 404, as /v1/models says', async () => {
    const reserved = await fixture.addRoute({
      model: 'gpt-4.1',
      base_url: fixture.openAiBase(),
      reserved_for: [ownerId],
    });
    const mine = await owner.chat.completions.create({ model: 'gpt-4.1', messages: ask });
    assert.equal(mine.model, 'gpt-4.1');
    assert.equal(await fixture.routeOf(mine.id), reserved.id);
    const upstreamBefore = await fixture.upstreamRequests();
    const refusal = await other.chat.completions.create({ model: 'gpt-4.1', messages: ask }).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(refusal instanceof OpenAI.APIError, String(refusal));
    assert.equal(refusal.status, 404);
    assert.equal(refusal.code, 'model_not_found');
    assert.equal(refusal.param, 'model');
    assert.equal(refusal.headers?.get('retry-after') ?? null, null, 'no promise of a retry: the route is not theirs');
    const response = await other.responses.create({ model: 'gpt-4.1', input: 'Hello' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(response instanceof OpenAI.APIError && response.status === 404, 'the Responses API agrees');
    assert.equal(await fixture.upstreamRequests(), upstreamBefore, 'no upstream call');
  });

  test('/v1/models lists a model whose only route is reserved to its owner, and hides it from other accounts', async () => {
    const model = 'gpt-4.1-mini';
    const listed = async (client: OpenAI) => (await client.models.list()).data.map((entry) => entry.id);
    assert.ok((await listed(other)).includes(model), 'listed while the sandbox route serves every account');
    await fixture.addRoute({ model, base_url: fixture.openAiBase(), reserved_for: [ownerId] });
    assert.ok((await listed(owner)).includes(model), 'the owner sees it');
    assert.equal((await owner.models.retrieve(model)).id, model);
    const otherList = await listed(other);
    assert.ok(!otherList.includes(model), 'another account does not');
    assert.ok(otherList.includes('gpt-4o'), 'models with a shared route stay listed');
    const lookup = await other.models.retrieve(model).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(lookup instanceof OpenAI.APIError, String(lookup));
    assert.equal(lookup.status, 404);
    assert.equal(lookup.code, 'model_not_found');
  });
});
