import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sliceCodePoints } from '../../lib/code-point-offsets.ts';
import type { ChatChunk } from '../../openai-api/chat-completion.ts';
import type { ChatRequest } from '../../openai-api/chat-request.ts';
import { InvalidRequestError } from '../../errors/invalid-request-error.ts';
import { UpstreamFailureError } from '../provider-adapter.ts';
import { readNativeSearch, type NativeSearchEvent } from '../shared/native-web-search.ts';
import { accumulateChoice, assertChunkStream } from '../test-support/assert-chunk-stream.ts';
import {
  expectedChunkIdentity,
  parseResponseFixture,
  readErrorFixture,
  replayStreamFixture,
} from '../test-support/replay-fixture.ts';
import type { OpenAiResponsesOptions } from './convert-responses-request.ts';
import { createOpenAiResponsesAdapter } from './openai-responses-adapter.ts';

const fixture = (name: string) => new URL(`./__fixtures__/${name}`, import.meta.url);
const target = { baseUrl: 'https://api.openai.com/v1/', credential: 'sk-test', upstreamModel: 'gpt-4o-2024-08-06' };
const plain: OpenAiResponsesOptions = { reasoningSummary: undefined, nativeSearch: undefined };
const withSearch: OpenAiResponsesOptions = {
  reasoningSummary: undefined,
  nativeSearch: { replacedFunctionName: 'web_search', tool: { search_context_size: 'low' }, maxSearches: 2 },
};
const adapter = createOpenAiResponsesAdapter(plain);

function build(request: Partial<ChatRequest>, options = plain, isStreaming = false) {
  const built = createOpenAiResponsesAdapter(options).buildRequest({
    request: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], ...request },
    target,
    isStreaming,
  });
  return { ...built, json: JSON.parse(built.body) as Record<string, unknown> };
}

const searchFunction = {
  type: 'function' as const,
  function: { name: 'web_search', parameters: { type: 'object', properties: { query: { type: 'string' } } } },
};
const weatherFunction = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object' }, strict: true },
};

describe('OpenAI Responses request', () => {
  it('posts to <base>/responses with the bearer key, the upstream model, and store: false', () => {
    const built = build({}, plain, true);
    assert.equal(built.url, 'https://api.openai.com/v1/responses');
    assert.equal(built.headers['authorization'], 'Bearer sk-test');
    assert.equal(built.headers['accept'], 'text/event-stream');
    assert.deepEqual(
      { model: built.json['model'], stream: built.json['stream'], store: built.json['store'] },
      { model: 'gpt-4o-2024-08-06', stream: true, store: false },
    );
  });

  it('turns messages into input items: tool calls and results as function_call and function_call_output', () => {
    const { json } = build({
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1__sig_abc', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1__sig_abc', content: '18C' },
      ],
    });
    assert.deepEqual(json['input'], [
      { type: 'message', role: 'system', content: 'Be brief.' },
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'Weather?' },
          { type: 'input_image', image_url: 'data:image/png;base64,AA', detail: 'auto' },
        ],
      },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: '18C' },
    ]);
  });

  it('sends flat function tools, the output limit, sampling, reasoning and a flat json_schema format', () => {
    const { json } = build(
      {
        tools: [weatherFunction],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
        parallel_tool_calls: false,
        max_completion_tokens: 99,
        temperature: 0.3,
        reasoning_effort: 'low',
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'city', schema: { type: 'object' }, strict: true },
        },
      },
      { ...plain, reasoningSummary: 'auto' },
    );
    assert.deepEqual(json['tools'], [
      { type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object' }, strict: true },
    ]);
    assert.deepEqual(json['tool_choice'], { type: 'function', name: 'get_weather' });
    assert.equal(json['parallel_tool_calls'], false);
    assert.equal(json['max_output_tokens'], 99);
    assert.equal(json['temperature'], 0.3);
    assert.deepEqual(json['reasoning'], { effort: 'low', summary: 'auto' });
    assert.deepEqual(json['text'], {
      format: { type: 'json_schema', name: 'city', schema: { type: 'object' }, strict: true },
    });
  });

  it('with vendor-native search, offers web_search in place of the gateway search function and asks for sources', () => {
    const { json } = build(
      { tools: [searchFunction, weatherFunction], tool_choice: { type: 'function', function: { name: 'web_search' } } },
      withSearch,
    );
    const tools = json['tools'] as Array<{ type: string; name?: string }>;
    assert.deepEqual(
      tools.map((tool) => tool.name ?? tool.type),
      ['get_weather', 'web_search'],
    );
    assert.deepEqual(tools[1], { type: 'web_search', search_context_size: 'low' });
    assert.deepEqual(json['tool_choice'], { type: 'allowed_tools', mode: 'required', tools: [{ type: 'web_search' }] });
    assert.deepEqual(json['include'], ['web_search_call.action.sources']);
    assert.equal(json['max_tool_calls'], 2);
  });

  it('refuses Chat-only parameters instead of dropping them', () => {
    assert.throws(
      () => build({ stop: ['END'] }),
      (error: unknown) => error instanceof InvalidRequestError && error.param === 'stop',
    );
  });
});

describe('OpenAI Responses answers', () => {
  it('reads text and a reasoning summary, with usage whose output includes reasoning', () => {
    const completion = parseResponseFixture(adapter, fixture('responses-text.json'));
    const choice = completion.choices[0];
    assert.equal(choice?.message.content, 'No: 91 = 7 × 13, so it is not prime.');
    assert.equal(choice?.message.reasoning_content, '**Checking divisibility**\n\n91 = 7 × 13.');
    assert.equal(choice?.finish_reason, 'stop');
    assert.equal(completion.model, 'client-model');
    assert.deepEqual(completion.usage, {
      prompt_tokens: 12,
      completion_tokens: 215,
      total_tokens: 227,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 192 },
    });
    assert.deepEqual(readNativeSearch(completion), []);
  });

  it('reads a function_call item as a tool call that ends the turn', () => {
    const choice = parseResponseFixture(adapter, fixture('responses-tool-call.json')).choices[0];
    assert.equal(choice?.finish_reason, 'tool_calls');
    assert.deepEqual(choice?.message.tool_calls, [
      {
        id: 'call_Kd8sQeUuE4v2ZrD3oYpXn1aB',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      },
    ]);
  });

  it('reads an incomplete response as a length cut', () => {
    assert.equal(
      parseResponseFixture(adapter, fixture('responses-incomplete.json')).choices[0]?.finish_reason,
      'length',
    );
  });

  it('reads the search and its citations, whose code-point offsets slice the text after an emoji', () => {
    const completion = parseResponseFixture(adapter, fixture('responses-web-search.json'));
    const events = readNativeSearch(completion);
    assert.deepEqual(events[0], {
      type: 'web_search',
      query: 'what causes ocean tides',
      sourceUrls: ['https://oceanservice.noaa.gov/facts/moon-tide.html', 'https://en.wikipedia.org/wiki/Tide'],
      isCompleted: true,
    });
    const text = completion.choices[0]?.message.content ?? '';
    assert.deepEqual(citedTexts(text, events), [
      'Tides 🌊 are driven mainly by the Moon’s gravity',
      'Spring tides, the strongest, come at new and full moon',
    ]);
  });

  it('streams the search where it happened and each citation after the text it cites', async () => {
    const { chunks, error } = await replayStreamFixture(adapter, fixture('responses-streamed-web-search.chunks.txt'));
    assert.equal(error, undefined);
    const searchAt = chunks.findIndex((chunk) => readNativeSearch(chunk).some((event) => event.type === 'web_search'));
    const firstTextAt = chunks.findIndex((chunk) => (chunk.choices[0]?.delta.content ?? '') !== '');
    assert.ok(searchAt >= 0 && searchAt < firstTextAt, 'the search comes before the answer text');
    let text = '';
    const cited: string[] = [];
    for (const chunk of chunks) {
      text += chunk.choices[0]?.delta.content ?? '';
      for (const event of readNativeSearch(chunk)) {
        if (event.type !== 'url_citation') continue;
        assert.ok(event.endIndex <= Array.from(text).length, 'a citation follows the text it cites');
        cited.push(sliceCodePoints(text, event.startIndex, event.endIndex));
      }
    }
    assert.deepEqual(cited, [
      'Tides 🌊 are driven mainly by the Moon’s gravity',
      'Spring tides, the strongest, come at new and full moon',
    ]);
    assert.equal(accumulate(chunks).finishReason, 'stop');
    assert.equal(chunks.at(-1)?.usage?.prompt_tokens, 8321);
  });

  it('streams a function call as tool-call deltas that join into its arguments', async () => {
    const { chunks, error } = await replayStreamFixture(adapter, fixture('responses-streamed-tool-call.chunks.txt'));
    assert.equal(error, undefined);
    const choice = accumulate(chunks);
    assert.deepEqual(choice.toolCalls, [
      { id: 'call_Kd8sQeUuE4v2ZrD3oYpXn1aB', name: 'get_weather', arguments: '{"city":"Paris"}' },
    ]);
    assert.equal(choice.finishReason, 'tool_calls');
  });

  it('ends a stream with an error event as a retryable upstream failure, after the text so far', async () => {
    const { chunks, error } = await replayStreamFixture(adapter, fixture('responses-mid-stream-error.chunks.txt'));
    assert.equal(accumulateChoice(chunks).content, 'A river');
    assert.ok(error instanceof UpstreamFailureError);
    assert.equal(error.failure.kind, 'retryable');
    assert.equal(error.failure.vendorCode, 'server_error');
  });

  it('reads error bodies in the OpenAI shape', () => {
    const failure = adapter.parseError(readErrorFixture(fixture('rate-limit-error.json')));
    assert.equal(failure.kind, 'retryable');
    assert.equal(failure.status, 429);
  });
});

function citedTexts(text: string, events: readonly NativeSearchEvent[]): string[] {
  return events.flatMap((event) =>
    event.type === 'url_citation' ? [sliceCodePoints(text, event.startIndex, event.endIndex)] : [],
  );
}

/** The SDK's view of the chunks, after checking the chunk invariants of every OpenAI-shaped stream. */
function accumulate(chunks: readonly ChatChunk[]) {
  assertChunkStream(
    chunks.filter((chunk) => readNativeSearch(chunk).length === 0),
    expectedChunkIdentity,
  );
  return accumulateChoice(chunks);
}
