import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { ChatRequest } from '../openai-api/chat-request.ts';
import { UpstreamFailureError } from './provider-adapter.ts';
import { chatProviderIds, type ChatProviderId } from './provider-id.ts';
import { providerAdapters } from './registry.ts';
import { accumulateChoice, assertChunkStream, findUsage } from './test-support/assert-chunk-stream.ts';
import {
  expectedChunkIdentity,
  parseResponseFixture,
  readErrorFixture,
  replayStreamAsSent,
  testIdentity,
} from './test-support/replay-fixture.ts';

/** docs/STYLE.md §5: the recordings every adapter must replay. */
const requiredFixtures = [
  'text.json',
  'tool-call.json',
  'streamed-text-with-usage.chunks.txt',
  'streamed-tool-call.chunks.txt',
  'error-body.json',
  'mid-stream-error.chunks.txt',
] as const;

const fixture = (id: ChatProviderId, name: (typeof requiredFixtures)[number]) =>
  new URL(`./${id}/__fixtures__/${name}`, import.meta.url);

const simpleRequest: ChatRequest = { model: 'client-model', messages: [{ role: 'user', content: 'Hi' }] };

for (const id of chatProviderIds) {
  const adapter = providerAdapters[id];

  describe(`${id} adapter`, () => {
    it('is registered under its own id and has every required fixture', () => {
      assert.equal(adapter.id, id);
      for (const name of requiredFixtures) assert.ok(existsSync(fixture(id, name)), `${id}: ${name} is missing`);
    });

    it('turns a text response into a completion for the requested model', () => {
      const completion = parseResponseFixture(adapter, fixture(id, 'text.json'));
      assert.equal(completion.model, testIdentity.requestedModel);
      assert.equal(completion.id, testIdentity.id);
      assert.equal(completion.created, testIdentity.createdUnixSeconds);
      assert.ok(completion.choices[0]?.message.content, 'the answer has text');
      assert.ok(completion.usage && completion.usage.total_tokens > 0);
    });

    it('turns a tool call into tool_calls with JSON arguments', () => {
      const choice = parseResponseFixture(adapter, fixture(id, 'tool-call.json')).choices[0];
      assert.equal(choice?.finish_reason, 'tool_calls');
      const call = choice?.message.tool_calls?.[0];
      assert.ok(call?.id);
      assert.equal(typeof JSON.parse(call.function.arguments), 'object');
    });

    it('streams text with one usage chunk at the end and the SDK invariants kept', async () => {
      const { chunks, error } = await replayStreamAsSent(adapter, fixture(id, 'streamed-text-with-usage.chunks.txt'));
      assert.equal(error, undefined);
      assertChunkStream(chunks, expectedChunkIdentity);
      assert.ok(accumulateChoice(chunks).content.length > 0);
      assert.ok(findUsage(chunks));
    });

    it('streams a tool call whose arguments assemble into JSON', async () => {
      const { chunks, error } = await replayStreamAsSent(adapter, fixture(id, 'streamed-tool-call.chunks.txt'));
      assert.equal(error, undefined);
      assertChunkStream(chunks, expectedChunkIdentity);
      const choice = accumulateChoice(chunks);
      assert.equal(choice.finishReason, 'tool_calls');
      for (const call of choice.toolCalls) assert.equal(typeof JSON.parse(call.arguments), 'object');
    });

    it('classifies an error body', () => {
      const recorded = readErrorFixture(fixture(id, 'error-body.json'));
      const failure = adapter.parseError(recorded);
      assert.equal(failure.status, recorded.status);
      assert.ok(failure.message.length > 0);
    });

    it('throws an UpstreamFailureError for an error in the middle of a stream', async () => {
      const { chunks, error } = await replayStreamAsSent(adapter, fixture(id, 'mid-stream-error.chunks.txt'));
      assert.ok(error instanceof UpstreamFailureError, String(error));
      assert.ok(chunks.every((chunk) => chunk.model === testIdentity.requestedModel));
    });

    it('builds a JSON request for the upstream model', () => {
      const built = adapter.buildRequest({
        request: simpleRequest,
        target: { baseUrl: 'http://127.0.0.1:9/prefix/', credential: 'secret', upstreamModel: 'vendor-model' },
        isStreaming: true,
      });
      assert.ok(built.url.startsWith('http://127.0.0.1:9/prefix/'));
      assert.ok(!built.url.includes('//', 'http://'.length));
      assert.ok(Object.values(built.headers).some((value) => value.includes('secret')));
      assert.equal(typeof JSON.parse(built.body), 'object');
    });
  });
}
