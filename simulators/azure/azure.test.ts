import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSimulator, type RunningSimulator } from '../start-simulator.ts';

describe('Azure OpenAI simulator', () => {
  let simulator: RunningSimulator;
  const deploymentUrl = (query = '?api-version=2024-10-21') =>
    `${simulator.url}/azure/openai/deployments/gpt4o-prod/chat/completions${query}`;
  const post = (url: string, headers: Record<string, string>, body: Record<string, unknown> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'Hi' }], ...body }),
    });
  /** The JSON of each `data:` event of a stream, up to `[DONE]`. */
  const readEvents = async (response: Response) =>
    (await response.text())
      .split('\n\n')
      .map((event) => event.replace(/^data: /, '').trim())
      .filter((data) => data !== '' && data !== '[DONE]')
      .map((data) => JSON.parse(data) as Record<string, unknown>);

  before(async () => {
    simulator = await startSimulator();
  });
  after(() => simulator.close());

  it('answers at a deployment URL with the api-key header, with content-filter annotations', async () => {
    const response = await post(deploymentUrl(), { 'api-key': 'azure-key' });
    assert.equal(response.status, 200);
    assert.ok(response.headers.get('apim-request-id'));
    const body = (await response.json()) as {
      object: string;
      model: string;
      prompt_filter_results: unknown[];
      choices: { message: { content: string }; content_filter_results: unknown }[];
    };
    assert.equal(body.object, 'chat.completion');
    assert.ok(body.choices[0]?.message.content);
    assert.equal(body.prompt_filter_results.length, 1);
    assert.equal(body.model, 'gpt-4o-2024-08-06', "the deployment's underlying model, not the deployment name");
  });

  it('takes the model from the deployment: no model in the body is needed, and one given is ignored', async () => {
    const named = (await (await post(deploymentUrl(), { 'api-key': 'azure-key' }, { model: 'o3' })).json()) as {
      model: string;
      choices: { message: { content: string } }[];
    };
    const bare = (await (await post(deploymentUrl(), { 'api-key': 'azure-key' })).json()) as typeof named;
    assert.equal(named.model, 'gpt-4o-2024-08-06');
    assert.equal(named.choices[0]?.message.content, bare.choices[0]?.message.content, 'the same model answered');
    const mini = `${simulator.url}/azure/openai/deployments/eu-gpt-4o-mini-2/chat/completions?api-version=2024-10-21`;
    const miniBody = (await (await post(mini, { 'api-key': 'azure-key' })).json()) as { model: string };
    assert.equal(miniBody.model, 'gpt-4o-mini-2024-07-18', 'the longest model name in the deployment name');
  });

  it("opens a stream with Azure's choices-less chunk of prompt-filter results", async () => {
    const response = await post(deploymentUrl(), { 'api-key': 'azure-key' }, { stream: true });
    assert.equal(response.status, 200);
    const [opening, first, second] = await readEvents(response);
    assert.deepEqual(
      { ...opening, prompt_filter_results: undefined },
      { choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: undefined },
    );
    const filter = (
      opening?.['prompt_filter_results'] as { prompt_index: number; content_filter_results: object }[]
    )[0];
    assert.equal(filter?.prompt_index, 0);
    assert.ok(filter && 'hate' in filter.content_filter_results);
    assert.equal(first?.['object'], 'chat.completion.chunk');
    assert.equal(first?.['model'], 'gpt-4o-2024-08-06');
    const [role] = first?.['choices'] as { delta: { role: string }; content_filter_results: object }[];
    assert.equal(role?.delta.role, 'assistant');
    assert.deepEqual(role.content_filter_results, {});
    const [text] = second?.['choices'] as { content_filter_results: object }[];
    assert.ok(text && 'violence' in text.content_filter_results, 'text chunks carry their filter results');
  });

  it('answers 404 DeploymentNotFound for a deployment that does not exist', async () => {
    const url = `${simulator.url}/azure/openai/deployments/chat-default/chat/completions?api-version=2024-10-21`;
    const response = await post(url, { 'api-key': 'azure-key' });
    assert.equal(response.status, 404);
    const body = (await response.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'DeploymentNotFound');
    assert.match(body.error.message, /deployment for this resource does not exist/);
  });

  it('refuses a missing or wrong key with a 401 in the API-management shape, ignoring bearer tokens', async () => {
    for (const headers of [{}, { authorization: 'Bearer azure-key' }, { 'api-key': 'invalid-key' }]) {
      const response = await post(deploymentUrl(), headers);
      assert.equal(response.status, 401);
      const body = (await response.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, '401');
      assert.match(body.error.message, /Access denied/);
    }
  });

  it('answers 404 Resource not found without an api-version or at another path', async () => {
    for (const url of [deploymentUrl(''), `${simulator.url}/azure/openai/chat/completions?api-version=2024-10-21`]) {
      const response = await post(url, { 'api-key': 'azure-key' });
      assert.equal(response.status, 404);
      assert.deepEqual(await response.json(), { error: { code: '404', message: 'Resource not found' } });
    }
  });

  it('honours path faults like every simulated vendor', async () => {
    const faulty = `${simulator.url}/_fault/${encodeURIComponent('status=429 retry-after=7')}/azure/openai/deployments/d/chat/completions?api-version=2024-10-21`;
    const response = await post(faulty, { 'api-key': 'azure-key' });
    assert.equal(response.status, 429);
    assert.equal(response.headers.get('retry-after'), '7');
  });
});
