import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSimulator, type RunningSimulator } from '../start-simulator.ts';

describe('Vertex AI simulator', () => {
  let simulator: RunningSimulator;
  const modelUrl = (method: string) =>
    `${simulator.url}/vertex/v1/projects/acme-prod-1/locations/us-central1/publishers/google/models/gemini-2.5-flash:${method}`;
  const post = (url: string, headers: Record<string, string>) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] }),
    });

  before(async () => {
    simulator = await startSimulator();
  });
  after(() => simulator.close());

  it('answers generateContent with a bearer token, in Gemini’s body shape', async () => {
    const response = await post(modelUrl('generateContent'), { authorization: 'Bearer ya29.token' });
    assert.equal(response.status, 200);
    const body = (await response.json()) as {
      candidates: { content: { parts: { text: string }[] } }[];
      usageMetadata: { promptTokenCount: number };
    };
    assert.ok(body.candidates[0]?.content.parts[0]?.text);
    assert.ok(body.usageMetadata.promptTokenCount > 0);
  });

  it('streams server-sent events with alt=sse', async () => {
    const response = await post(`${modelUrl('streamGenerateContent')}?alt=sse`, { authorization: 'Bearer ya29.token' });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
    assert.match(await response.text(), /^data: \{/m);
  });

  it('refuses a missing or invalid token with 401 UNAUTHENTICATED, and an API key is not a token', async () => {
    for (const headers of [{}, { 'x-goog-api-key': 'key' }, { authorization: 'Bearer invalid-token' }]) {
      const response = await post(modelUrl('generateContent'), headers);
      assert.equal(response.status, 401);
      const body = (await response.json()) as { error: { status: string } };
      assert.equal(body.error.status, 'UNAUTHENTICATED');
    }
  });

  it('answers 404 outside the publisher model paths', async () => {
    const response = await post(`${simulator.url}/vertex/v1beta/models/gemini-2.5-flash:generateContent`, {
      authorization: 'Bearer ya29.token',
    });
    assert.equal(response.status, 404);
  });
});
