import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { ChatChunk } from '../../openai-api/chat-completion.ts';
import { parseSse } from '../shared/parse-sse.ts';
import { readRelayedJson } from '../shared/relayed-chunk.ts';
import { replayStreamFixture, testIdentity } from '../test-support/replay-fixture.ts';
import { createOpenAiDialectAdapter, openAiAdapter } from './openai-adapter.ts';
import { openAiQuirks } from './openai-quirks.ts';

const fixtureUrl = (name: string) => new URL(`./__fixtures__/${name}`, import.meta.url);
/** The same dialect without relaying: every chunk goes through the converter and the chunk builder. */
const convertingAdapter = createOpenAiDialectAdapter('openai', openAiQuirks);

/**
 * The fixture's data lines (not `[DONE]`) with id, created and model replaced, and OpenAI's `"usage":null` left out,
 * as a reviewer would do it by hand.
 */
function expectedRelayedLines(name: string): string[] {
  const lines = readFileSync(fixtureUrl(name), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('data: {'));
  return lines.map((line) =>
    line
      .slice('data: '.length)
      .replace(/"id":"[^"]*"/, `"id":"${testIdentity.id}"`)
      .replace(/"created":\d+/, `"created":${testIdentity.createdUnixSeconds}`)
      .replace(/"model":"[^"]*"/, `"model":"${testIdentity.requestedModel}"`)
      .replace(',"usage":null', ''),
  );
}

/** What a client assembles from a stream's chunks, per choice: role, text, refusal, tool calls, finish reason. */
function assemble(chunks: readonly ChatChunk[]): unknown {
  const choices = new Map<
    number,
    { role: unknown; content: string; refusal: string; tools: string; finish: unknown }
  >();
  for (const chunk of chunks) {
    const sent = JSON.parse(readRelayedJson(chunk) ?? JSON.stringify(chunk)) as ChatChunk;
    assert.deepEqual(
      [sent.id, sent.created, sent.model],
      [testIdentity.id, testIdentity.createdUnixSeconds, testIdentity.requestedModel],
    );
    for (const { index, delta, finish_reason } of sent.choices) {
      const choice = choices.get(index) ?? { role: undefined, content: '', refusal: '', tools: '', finish: null };
      choice.role ??= delta.role;
      choice.content += delta.content ?? '';
      choice.refusal += delta.refusal ?? '';
      for (const call of delta.tool_calls ?? [])
        choice.tools += `${call.index}:${call.id ?? ''}:${call.function.name ?? ''}:${call.function.arguments ?? ''};`;
      choice.finish = finish_reason ?? choice.finish;
      choices.set(index, choice);
    }
  }
  return [...choices];
}

describe('OpenAI stream chunks forwarded as sent', () => {
  it('text chunks: the bytes are the vendor’s but for id, created, model and a null usage', async () => {
    const { chunks, error } = await replayStreamFixture(
      openAiAdapter,
      fixtureUrl('streamed-text-with-usage.chunks.txt'),
    );
    assert.equal(error, undefined);
    const relayed = chunks.map(readRelayedJson).filter((json) => json !== undefined);
    const expected = expectedRelayedLines('streamed-text-with-usage.chunks.txt');
    // Every chunk but the usage one (held back, sent after settlement with the cost) is relayed.
    assert.deepEqual(relayed, expected.slice(0, -1));
  });

  it('reads the same usage as the converter, and a client assembles the same answer', async () => {
    for (const name of ['streamed-text-with-usage.chunks.txt', 'streamed-tool-call.chunks.txt']) {
      const relaying = await replayStreamFixture(openAiAdapter, fixtureUrl(name));
      const converting = await replayStreamFixture(convertingAdapter, fixtureUrl(name));
      assert.equal(relaying.error, undefined, name);
      const usage = (chunks: ChatChunk[]) => chunks.find((chunk) => chunk.usage)?.usage;
      assert.deepEqual(usage(relaying.chunks), usage(converting.chunks), `${name}: usage`);
      assert.deepEqual(assemble(relaying.chunks), assemble(converting.chunks), `${name}: what a client assembles`);
    }
  });

  it('converts tool-call chunks rather than relaying them', async () => {
    const { chunks } = await replayStreamFixture(openAiAdapter, fixtureUrl('streamed-tool-call.chunks.txt'));
    const toolChunks = chunks.filter((chunk) => chunk.choices.some((choice) => choice.delta.tool_calls));
    assert.ok(toolChunks.length > 0);
    for (const chunk of toolChunks) assert.equal(readRelayedJson(chunk), undefined);
  });

  it('still finds a stream cut off before its finish', async () => {
    const text = readFileSync(fixtureUrl('streamed-text-with-usage.chunks.txt'), 'utf8');
    const cut = text.split('\n\n').slice(0, 3).join('\n\n') + '\n\n';
    const events = parseSse(
      (async function* () {
        yield new TextEncoder().encode(cut);
      })(),
    );
    const stream = openAiAdapter.parseStream({ events, ...testIdentity });
    await assert.rejects(async () => {
      for await (const _chunk of stream);
    }, /ended the stream before the answer was complete/);
  });
});
