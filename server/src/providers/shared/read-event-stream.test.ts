import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { ChatChunk } from '../../openai-api/chat-completion.ts';
import { openAiAdapter } from '../openai/openai-adapter.ts';
import { isChatProviderId } from '../provider-id.ts';
import { UpstreamFailureError, type ProviderAdapter } from '../provider-adapter.ts';
import { providerAdapters } from '../registry.ts';
import { replayStreamFixture, streamBytes, testIdentity } from '../test-support/replay-fixture.ts';
import { readEventStream } from './read-event-stream.ts';
import { readRelayedJson } from './relayed-chunk.ts';

const providersUrl = new URL('../', import.meta.url);
const encoder = new TextEncoder();

/** Every recorded stream of an adapter that converts one event at a time. */
function convertibleFixtures(): { adapter: ProviderAdapter; url: URL; name: string }[] {
  return readdirSync(providersUrl).flatMap((folder) => {
    if (!isChatProviderId(folder) || providerAdapters[folder].createStreamConverter === undefined) return [];
    const fixtures = new URL(`${folder}/__fixtures__/`, providersUrl);
    let names: string[];
    try {
      names = readdirSync(fixtures).filter((name) => name.endsWith('.chunks.txt') && !name.startsWith('responses-'));
    } catch {
      return [];
    }
    return names.map((name) => ({
      adapter: providerAdapters[folder],
      url: new URL(name, fixtures),
      name: `${folder}/${name}`,
    }));
  });
}

async function readAll(
  adapter: ProviderAdapter,
  body: AsyncIterable<Uint8Array>,
): Promise<{ chunks: ChatChunk[]; error: unknown }> {
  const converter = adapter.createStreamConverter?.(testIdentity);
  assert.ok(converter);
  const reader = readEventStream(body, converter);
  const chunks: ChatChunk[] = [];
  try {
    for (let next = await reader.next(); next.done !== true; next = await reader.next()) chunks.push(next.value);
    return { chunks, error: undefined };
  } catch (error) {
    assert.equal((await reader.next()).done, true, 'nothing after the failure');
    return { chunks, error };
  }
}

/** A chunk as the client is sent it: its relayed text when it is forwarded as written, or its serialisation. */
const asSent = (chunks: readonly ChatChunk[]) => chunks.map((chunk) => readRelayedJson(chunk) ?? JSON.stringify(chunk));

const describeError = (error: unknown) =>
  error instanceof UpstreamFailureError ? { ...error.failure, message: error.message } : error;

/** A body that yields `pieces`, counting how many were read and whether it was let go. */
function countedBody(pieces: readonly string[]): {
  body: AsyncIterable<Uint8Array>;
  readCount: () => number;
  wasReleased: () => boolean;
} {
  let readCount = 0;
  let wasReleased = false;
  const body: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        if (readCount >= pieces.length) return { done: true, value: undefined };
        readCount += 1;
        return { done: false, value: encoder.encode(pieces[readCount - 1]) };
      },
      return: async () => {
        wasReleased = true;
        return { done: true, value: undefined };
      },
    }),
  };
  return { body, readCount: () => readCount, wasReleased: () => wasReleased };
}

const textChunk = (text: string) =>
  `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"${text}"},"finish_reason":null}]}\n\n`;
const finishChunk =
  'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n';
const roleChunk =
  'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}\n\n';

describe('readEventStream', () => {
  const fixtures = convertibleFixtures();

  it('covers the recorded streams of the OpenAI-dialect vendors', () => {
    const vendors = new Set(fixtures.map((fixture) => fixture.name.split('/')[0]));
    for (const vendor of ['openai', 'azure', 'groq', 'deepseek', 'mistral']) assert.ok(vendors.has(vendor), vendor);
  });

  for (const { adapter, url, name } of fixtures) {
    it(`${name}: the same chunks, text sent and failure as the adapter's parseStream, in any piece size`, async () => {
      const expected = await replayStreamFixture(adapter, url);
      const bytes = new Uint8Array(readFileSync(url));
      for (const pieceBytes of [1, 7, 4096]) {
        const actual = await readAll(adapter, streamBytes(bytes, pieceBytes));
        assert.deepEqual(asSent(actual.chunks), asSent(expected.chunks), `${pieceBytes}-byte pieces`);
        assert.deepEqual(describeError(actual.error), describeError(expected.error), `${pieceBytes}-byte pieces`);
      }
    });
  }

  it('reads the body only when the chunks read so far have been pulled', async () => {
    const upstream = countedBody([roleChunk + textChunk('a'), textChunk('b'), finishChunk]);
    const reader = readEventStream(upstream.body, openAiAdapter.createStreamConverter!(testIdentity));
    await reader.next();
    assert.equal(upstream.readCount(), 1);
    await reader.next();
    assert.equal(upstream.readCount(), 1, 'the second chunk of the first piece needs no read');
    await reader.next();
    assert.equal(upstream.readCount(), 2);
  });

  it('ends at data: [DONE] and lets go of the body without reading on', async () => {
    const upstream = countedBody([textChunk('a') + finishChunk + 'data: [DONE]\n\n', textChunk('never')]);
    const { chunks, error } = await readAll(openAiAdapter, upstream.body);
    assert.equal(error, undefined);
    assert.equal(chunks.length, 2);
    assert.equal(upstream.readCount(), 1);
    assert.equal(upstream.wasReleased(), true);
  });

  it('sends the chunks before a malformed event, then fails, and lets go of the body', async () => {
    const upstream = countedBody([textChunk('a') + textChunk('b') + 'data: {"choices":\n\n' + textChunk('c')]);
    const { chunks, error } = await readAll(openAiAdapter, upstream.body);
    assert.deepEqual(
      chunks.map((chunk) => chunk.choices[0]?.delta.content),
      ['a', 'b'],
    );
    assert.ok(error instanceof UpstreamFailureError);
    assert.equal(error.failure.vendorCode, 'malformed_sse_data');
    assert.equal(upstream.wasReleased(), true);
  });

  it('fails a stream cut off before its finish, after the chunks it had', async () => {
    const upstream = countedBody([roleChunk, textChunk('a')]);
    const { chunks, error } = await readAll(openAiAdapter, upstream.body);
    assert.equal(chunks.length, 2);
    assert.ok(error instanceof UpstreamFailureError);
    assert.equal(upstream.wasReleased(), false, 'a body that ended needs no letting go');
  });

  it('passes on a read error of the body after the chunks read before it', async () => {
    const failure = new Error('socket closed');
    let reads = 0;
    const body: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          reads += 1;
          if (reads > 1) throw failure;
          return { done: false, value: encoder.encode(textChunk('a')) };
        },
      }),
    };
    const { chunks, error } = await readAll(openAiAdapter, body);
    assert.equal(chunks.length, 1);
    assert.equal(error, failure);
  });

  it('return() lets go of the body once, and nothing comes after it', async () => {
    const upstream = countedBody([textChunk('a') + textChunk('b'), finishChunk]);
    const reader = readEventStream(upstream.body, openAiAdapter.createStreamConverter!(testIdentity));
    await reader.next();
    assert.deepEqual(await reader.return?.(), { done: true, value: undefined });
    assert.equal(upstream.wasReleased(), true);
    assert.equal((await reader.next()).done, true);
  });
});
