import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accumulateChoice } from '../test-support/assert-chunk-stream.ts';
import { parseResponseFixture, readErrorFixture, replayStreamFixture } from '../test-support/replay-fixture.ts';
import { vertexAdapter } from './vertex-adapter.ts';

const fixture = (name: string) => new URL(`./__fixtures__/${name}`, import.meta.url);
const request = { model: 'gemini-2.5-flash', messages: [{ role: 'user' as const, content: 'Hi' }] };
const root = 'https://europe-west4-aiplatform.googleapis.com/v1/projects/acme-prod/locations/europe-west4';

describe('Vertex AI adapter', () => {
  it('calls the publisher model under the location root with a bearer token, streaming as SSE', () => {
    const target = { baseUrl: root, credential: 'ya29.token', upstreamModel: 'gemini-2.5-flash' };
    const streamed = vertexAdapter.buildRequest({ request, target, isStreaming: true });
    assert.equal(streamed.url, `${root}/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse`);
    assert.equal(streamed.headers['authorization'], 'Bearer ya29.token');
    assert.equal(streamed.headers['x-goog-api-key'], undefined);
    const unary = vertexAdapter.buildRequest({
      request,
      target: { ...target, upstreamModel: 'models/gemini-2.5-pro' },
      isStreaming: false,
    });
    assert.equal(unary.url, `${root}/publishers/google/models/gemini-2.5-pro:generateContent`);
    const body = JSON.parse(unary.body) as { contents: { role: string }[] };
    assert.equal(body.contents[0]?.role, 'user', 'Vertex requires a role on every content');
  });

  it("composes the location root from the route's endpoint and its project and location options", () => {
    const built = vertexAdapter.buildRequest({
      request,
      target: {
        baseUrl: 'https://europe-west4-aiplatform.googleapis.com',
        credential: 'ya29.token',
        upstreamModel: 'gemini-2.5-flash',
        options: { vertex_project: 'acme-prod', vertex_location: 'europe-west4' },
      },
      isStreaming: false,
    });
    assert.equal(built.url, `${root}/publishers/google/models/gemini-2.5-flash:generateContent`);
  });

  it('reads Vertex answers, streams and usage like Gemini answers', async () => {
    const completion = parseResponseFixture(vertexAdapter, fixture('text.json'));
    assert.equal(completion.choices[0]?.message.content, 'Hello! How can I help you today?');
    assert.equal(completion.usage?.prompt_tokens, 8);
    const { chunks, error } = await replayStreamFixture(vertexAdapter, fixture('streamed-text-with-usage.chunks.txt'));
    assert.equal(error, undefined);
    assert.equal(accumulateChoice(chunks).content, 'Hello! How can I help you today?');
  });

  it('treats an invalid access token as our credential failing and a 429 as retryable', () => {
    assert.equal(vertexAdapter.parseError(readErrorFixture(fixture('invalid-token-error.json'))).kind, 'credential');
    assert.equal(vertexAdapter.parseError(readErrorFixture(fixture('error-body.json'))).kind, 'retryable');
  });
});
