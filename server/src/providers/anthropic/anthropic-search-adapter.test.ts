import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sliceCodePoints } from '../../lib/code-point-offsets.ts';
import type { ChatChunk } from '../../openai-api/chat-completion.ts';
import { readNativeSearch, type NativeSearchEvent } from '../shared/native-web-search.ts';
import { assertChunkStream } from '../test-support/assert-chunk-stream.ts';
import { expectedChunkIdentity, parseResponseFixture, replayStreamFixture } from '../test-support/replay-fixture.ts';
import { createAnthropicSearchAdapter } from './anthropic-search-adapter.ts';

const fixture = (name: string) => new URL(`./__fixtures__/${name}`, import.meta.url);
const adapter = createAnthropicSearchAdapter({
  replacedFunctionName: 'web_search',
  tool: { filters: { allowed_domains: ['noaa.gov'] }, user_location: { type: 'approximate', country: 'GB' } },
  maxSearches: 3,
});
const target = { baseUrl: 'https://api.anthropic.com', credential: 'sk-ant-test', upstreamModel: 'claude-sonnet-4-5' };
const searchFunction = {
  type: 'function' as const,
  function: { name: 'web_search', parameters: { type: 'object', properties: { query: { type: 'string' } } } },
};
const expectedSources = ['https://en.wikipedia.org/wiki/Tide', 'https://scijinks.gov/tides/'];
const expectedCited = [
  ['tides are caused mainly by the Moon’s gravity', 'https://en.wikipedia.org/wiki/Tide'],
  ['Spring tides happen at new and full moon.', 'https://scijinks.gov/tides/'],
];

describe('Anthropic web search server tool (vendor-native search)', () => {
  it('replaces the gateway search function by the server tool, with the client settings, forced when asked', () => {
    const built = adapter.buildRequest({
      request: {
        model: 'claude-sonnet-4-5',
        messages: [{ role: 'user', content: 'Tides?' }],
        tools: [searchFunction],
        tool_choice: { type: 'function', function: { name: 'web_search' } },
      },
      target,
      isStreaming: false,
    });
    assert.equal(built.url, 'https://api.anthropic.com/v1/messages');
    assert.equal(built.headers['x-api-key'], 'sk-ant-test');
    const body = JSON.parse(built.body) as { tools: unknown[]; tool_choice: unknown };
    assert.deepEqual(body.tools, [
      {
        type: 'web_search_20250305',
        name: 'web_search',
        max_uses: 3,
        allowed_domains: ['noaa.gov'],
        user_location: { type: 'approximate', country: 'GB' },
      },
    ]);
    assert.deepEqual(body.tool_choice, { type: 'tool', name: 'web_search' });
  });

  it('reads the search and the cited text blocks of a whole message, offsets in code points of the joined text', () => {
    const completion = parseResponseFixture(adapter, fixture('web-search-cited.json'));
    const text = completion.choices[0]?.message.content ?? '';
    const events = readNativeSearch(completion);
    assert.deepEqual(events[0], {
      type: 'web_search',
      query: 'what causes ocean tides',
      sourceUrls: expectedSources,
      isCompleted: true,
    });
    assert.deepEqual(citedTexts(text, events.slice(1)), expectedCited);
  });

  it('streams the search before the text after it, and each citation after its block', async () => {
    const { chunks, error } = await replayStreamFixture(adapter, fixture('streamed-web-search-cited.chunks.txt'));
    assert.equal(error, undefined);
    assertChunkStream(
      chunks.filter((chunk) => readNativeSearch(chunk).length === 0),
      expectedChunkIdentity,
    );
    let text = '';
    const cited: string[][] = [];
    let searchCount = 0;
    for (const chunk of chunks) {
      text += chunk.choices[0]?.delta.content ?? '';
      for (const event of readNativeSearch(chunk)) {
        if (event.type === 'web_search') {
          assert.equal(text, 'Let me look that up 🌊.', 'the search comes after the text before it');
          assert.deepEqual(event.sourceUrls, expectedSources);
          assert.equal(event.query, 'what causes ocean tides');
          searchCount += 1;
          text = '';
        } else {
          assert.ok(event.endIndex <= Array.from(text).length, 'a citation follows the text it cites');
          cited.push([sliceCodePoints(text, event.startIndex, event.endIndex), event.url]);
        }
      }
    }
    assert.equal(searchCount, 1);
    assert.deepEqual(cited, expectedCited);
    assert.ok(lastChunkHasUsage(chunks));
  });
});

function citedTexts(text: string, events: readonly NativeSearchEvent[]): string[][] {
  return events.flatMap((event) =>
    event.type === 'url_citation' ? [[sliceCodePoints(text, event.startIndex, event.endIndex), event.url]] : [],
  );
}

function lastChunkHasUsage(chunks: readonly ChatChunk[]): boolean {
  return chunks.some((chunk) => chunk.usage?.prompt_tokens === 6039);
}
