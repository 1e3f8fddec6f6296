import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSimulator, type RunningSimulator } from '../start-simulator.ts';

describe('Azure OpenAI simulator', () => {
  let simulator: RunningSimulator;
  const deploymentUrl = (query = '?api-version=2024-10-21') =>
    `${simulator.url}/azure/openai/deployments/gpt4o-prod/chat/completions${query}`;
  const post = (url: string, headers: Record<string, string>, stream = false) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], stream }),
    });

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
      prompt_filter_results: unknown[];
      choices: { message: { content: string }; content_filter_results: unknown }[];
    };
    assert.equal(body.object, 'chat.completion');
    assert.ok(body.choices[0]?.message.content);
    assert.equal(body.prompt_filter_results.length, 1);
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
