import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sliceCodePoints } from '../../lib/code-point-offsets.ts';
import { readNativeSearch, type NativeSearchEvent } from '../shared/native-web-search.ts';
import { parseResponseFixture, replayStreamFixture } from '../test-support/replay-fixture.ts';
import { createGeminiSearchAdapter } from './gemini-search-adapter.ts';

const fixture = (name: string) => new URL(`./__fixtures__/${name}`, import.meta.url);
const adapter = createGeminiSearchAdapter({ replacedFunctionName: 'web_search', tool: {}, maxSearches: 2 });
const target = {
  baseUrl: 'https://generativelanguage.googleapis.com',
  credential: 'AIza-test',
  upstreamModel: 'gemini-2.5-flash',
};
const noaa = 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQGr1sxm6kVb0E7aXq';
const wikipedia = 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQHn3kq9bT2fLw8Yd';
const expectedCited = [
  ['Tides 🌊 rise and fall twice a day.', noaa],
  ['They are caused mainly by the Moon’s gravity 𠀋, with help from the Sun.', wikipedia],
  ['They are caused mainly by the Moon’s gravity 𠀋, with help from the Sun.', noaa],
];

describe('Gemini Google Search grounding (vendor-native search)', () => {
  it('offers googleSearch in place of the gateway search function', () => {
    const built = adapter.buildRequest({
      request: {
        model: 'gemini-2.5-flash',
        messages: [{ role: 'user', content: 'Tides?' }],
        tools: [{ type: 'function', function: { name: 'web_search', parameters: { type: 'object' } } }],
        tool_choice: { type: 'function', function: { name: 'web_search' } },
      },
      target,
      isStreaming: true,
    });
    assert.match(built.url, /:streamGenerateContent\?alt=sse$/);
    const body = JSON.parse(built.body) as { tools: Array<Record<string, unknown>>; toolConfig?: unknown };
    assert.deepEqual(body.tools, [{ googleSearch: {} }]);
    assert.equal(body.toolConfig, undefined, 'no function calling mode without functions');
  });

  it('keeps the gateway search function when the client offers functions too: Gemini refuses googleSearch beside them', () => {
    const built = adapter.buildRequest({
      request: {
        model: 'gemini-2.5-flash',
        messages: [{ role: 'user', content: 'Tides?' }],
        tools: [
          { type: 'function', function: { name: 'web_search', parameters: { type: 'object' } } },
          { type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } },
        ],
      },
      target,
      isStreaming: false,
    });
    const body = JSON.parse(built.body) as { tools: Array<Record<string, unknown>> };
    assert.deepEqual(body.tools, [
      {
        functionDeclarations: [
          { name: 'web_search', parametersJsonSchema: { type: 'object' } },
          { name: 'get_weather', parametersJsonSchema: { type: 'object' } },
        ],
      },
    ]);
  });

  it('turns grounding byte offsets into code points of the answer, searches listed first', () => {
    const completion = parseResponseFixture(adapter, fixture('grounded-search.json'));
    const text = completion.choices[0]?.message.content ?? '';
    const events = readNativeSearch(completion);
    assert.deepEqual(
      events.filter((event) => event.type === 'web_search'),
      [
        { type: 'web_search', query: 'what causes ocean tides', sourceUrls: [noaa, wikipedia], isCompleted: true },
        { type: 'web_search', query: 'spring tide neap tide', sourceUrls: [], isCompleted: true },
      ],
    );
    assert.equal(events[0]?.type, 'web_search');
    assert.deepEqual(citedTexts(text, events), expectedCited);
  });

  it('streams the grounding after the text, with the same spans', async () => {
    const { chunks, error } = await replayStreamFixture(adapter, fixture('streamed-grounded-search.chunks.txt'));
    assert.equal(error, undefined);
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    const events = chunks.flatMap((chunk) => readNativeSearch(chunk));
    assert.deepEqual(citedTexts(text, events), expectedCited);
    assert.equal(events.at(-1)?.type, 'web_search', 'the searches come after the citations of the text before them');
    assert.ok(readNativeSearch(chunks.at(-1) ?? chunks[0]!).length > 0, 'grounding goes out last');
  });
});

function citedTexts(text: string, events: readonly NativeSearchEvent[]): string[][] {
  return events.flatMap((event) =>
    event.type === 'url_citation' ? [[sliceCodePoints(text, event.startIndex, event.endIndex), event.url]] : [],
  );
}
