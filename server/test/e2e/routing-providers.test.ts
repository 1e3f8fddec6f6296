import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startRoutingFixture, type RoutingFixture } from '../support/routing-fixture.ts';

const ask = [{ role: 'user' as const, content: 'Name three rivers.' }];

describe('Azure OpenAI and Vertex AI routes', () => {
  let fixture: RoutingFixture;

  before(async () => {
    fixture = await startRoutingFixture();
  });
  after(() => fixture.close());

  test('an Azure deployment serves an OpenAI model, streamed and not, under the requested name', async () => {
    const route = await fixture.addRoute({
      model: 'gpt-4o',
      provider: 'azure',
      base_url: `${fixture.simulatorUrl}/azure`,
      upstream_model: 'prod-gpt4o',
      options: { api_version: '2025-01-01-preview' },
    });
    const completion = await fixture.client.chat.completions.create({ model: 'gpt-4o', messages: ask });
    assert.equal(completion.model, 'gpt-4o');
    assert.ok(completion.choices[0]?.message.content);
    assert.equal(await fixture.routeOf(completion.id), route.id);
    const stream = await fixture.client.chat.completions.create({
      model: 'gpt-4o',
      messages: ask,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let completionTokens = 0;
    let streamId = '';
    for await (const chunk of stream) {
      // Azure opens its stream with a chunk of prompt-filter results and no choices: the client never sees it.
      assert.ok(!('prompt_filter_results' in chunk), 'no Azure annotation reaches the client');
      assert.ok(chunk.choices.length > 0 || chunk.usage, 'the only choices-less chunk is the usage one');
      assert.equal(chunk.model, 'gpt-4o');
      text += chunk.choices[0]?.delta.content ?? '';
      completionTokens = chunk.usage?.completion_tokens ?? completionTokens;
      streamId = chunk.id;
    }
    assert.equal(text, completion.choices[0]?.message.content, 'the same answer either way');
    assert.ok(completionTokens > 0);
    assert.equal(await fixture.routeOf(streamId), route.id, 'streamed through the Azure route');
  });

  test('an Azure deployment that does not exist fails over to the next route', async () => {
    const model = 'gpt-4.1';
    const missing = await fixture.addRoute({
      model,
      provider: 'azure',
      priority: 1,
      base_url: `${fixture.simulatorUrl}/azure`,
      upstream_model: 'chat-default',
    });
    const openai = await fixture.addRoute({ model, priority: 2, base_url: fixture.openAiBase() });
    const completion = await fixture.client.chat.completions.create({ model, messages: ask });
    assert.equal(completion.model, model);
    assert.equal(await fixture.routeOf(completion.id), openai.id);
    const listed = (await fixture.listRoutes()).find((candidate) => candidate.id === missing.id);
    assert.equal(listed?.health.failures, 1, 'the 404 DeploymentNotFound counts against the Azure route');
  });

  test('a Vertex AI route serves a Gemini model through its project and location', async () => {
    const route = await fixture.addRoute({
      model: 'gemini-2.5-flash',
      provider: 'vertex',
      base_url: `${fixture.simulatorUrl}/vertex`,
      api_key: 'ya29.simulated-access-token',
      options: { vertex_project: 'acme-prod-1', vertex_location: 'europe-west4' },
    });
    assert.deepEqual(route.options, { vertex_project: 'acme-prod-1', vertex_location: 'europe-west4' });
    const completion = await fixture.client.chat.completions.create({ model: 'gemini-2.5-flash', messages: ask });
    assert.equal(completion.model, 'gemini-2.5-flash');
    assert.ok(completion.choices[0]?.message.content);
    assert.equal(await fixture.routeOf(completion.id), route.id);
    const stream = await fixture.client.chat.completions.create({
      model: 'gemini-2.5-flash',
      messages: ask,
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    assert.ok(text.length > 0);
  });

  test('a rejected Vertex token fails over to the Gemini API for the same model, invisibly', async () => {
    const model = 'gemini-2.5-pro';
    await fixture.addRoute({
      model,
      provider: 'vertex',
      priority: 1,
      base_url: `${fixture.simulatorUrl}/vertex`,
      api_key: 'invalid-expired-token',
      options: { vertex_project: 'acme-prod-1', vertex_location: 'us-central1' },
    });
    const direct = await fixture.addRoute({
      model,
      provider: 'gemini',
      priority: 2,
      base_url: `${fixture.simulatorUrl}/gemini`,
      api_key: 'gemini-key',
    });
    const completion = await fixture.client.chat.completions.create({ model, messages: ask });
    assert.equal(completion.model, model);
    assert.equal(await fixture.routeOf(completion.id), direct.id);
  });

  test('an Azure route without a deployment api-version of the right form is refused', async () => {
    const routes = await fixture.listRoutes();
    const azure = routes.find((route) => route.provider === 'azure');
    assert.ok(azure);
    const failure = await fixture
      .addRoute({
        model: 'gpt-4o',
        provider: 'azure',
        base_url: `${fixture.simulatorUrl}/azure`,
        options: { api_version: 'latest' },
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    assert.match(String(failure), /api_version/);
  });
});
