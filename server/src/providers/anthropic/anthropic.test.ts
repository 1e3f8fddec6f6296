import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../errors/invalid-request-error.ts';
import type { ChatRequest } from '../../openai-api/chat-request.ts';
import type { UpstreamTarget } from '../provider-adapter.ts';
import { accumulateChoice, assertChunkStream, findUsage } from '../test-support/assert-chunk-stream.ts';
import {
  expectedChunkIdentity,
  parseResponseFixture,
  readErrorFixture,
  replayStreamFixture,
} from '../test-support/replay-fixture.ts';
import { anthropicAdapter } from './anthropic-adapter.ts';
import { convertRequest, fallbackMaxTokens } from './convert-request.ts';

const fixture = (name: string) => new URL(`./__fixtures__/${name}`, import.meta.url);
const target: UpstreamTarget = {
  baseUrl: 'https://api.anthropic.com',
  credential: 'sk-ant-test',
  upstreamModel: 'claude-sonnet-4-20250514',
  defaultMaxOutputTokens: 64_000,
};

const convert = (request: Partial<ChatRequest> & Record<string, unknown>, routeTarget: UpstreamTarget = target) =>
  convertRequest({
    request: { model: 'claude', messages: [{ role: 'user', content: 'Hi' }], ...request },
    target: routeTarget,
    isStreaming: false,
  });

const refuses = (param: string) => (error: unknown) => {
  assert.ok(error instanceof InvalidRequestError, String(error));
  assert.equal(error.param, param);
  return true;
};

const weatherCall = (id: string) => ({
  id,
  type: 'function' as const,
  function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
});

describe('Anthropic request', () => {
  it('posts to <root>/v1/messages with x-api-key and anthropic-version', () => {
    const built = anthropicAdapter.buildRequest({
      request: { model: 'claude', messages: [{ role: 'user', content: 'Hi' }] },
      target,
      isStreaming: true,
    });
    assert.equal(built.url, 'https://api.anthropic.com/v1/messages');
    assert.equal(built.headers['x-api-key'], 'sk-ant-test');
    assert.equal(built.headers['anthropic-version'], '2023-06-01');
    assert.equal(JSON.parse(built.body).stream, true);
  });

  it('hoists system and developer messages and merges consecutive tool results into one user turn', () => {
    const body = convert({
      messages: [
        { role: 'system', content: 'Be terse.' },
        { role: 'user', content: 'Weather and time?' },
        { role: 'developer', content: [{ type: 'text', text: 'Use tools.' }] },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [weatherCall('toolu_1'), { ...weatherCall('toolu_2'), function: { name: 't', arguments: '' } }],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'sunny' },
        { role: 'tool', tool_call_id: 'toolu_2', content: [{ type: 'text', text: '12:00' }] },
        { role: 'user', content: 'Thanks' },
      ],
    });
    assert.deepEqual(body.system, [
      { type: 'text', text: 'Be terse.' },
      { type: 'text', text: 'Use tools.' },
    ]);
    assert.deepEqual(body.messages, [
      { role: 'user', content: [{ type: 'text', text: 'Weather and time?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_2', name: 't', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: '12:00' },
          { type: 'text', text: 'Thanks' },
        ],
      },
    ]);
  });

  it('converts images given as data URLs and https URLs, and refuses other image types', () => {
    const body = convert({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg', detail: 'low' } },
          ],
        },
      ],
    });
    assert.deepEqual(body.messages[0]?.content, [
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
    ]);
    const tiff = {
      role: 'user' as const,
      content: [{ type: 'image_url' as const, image_url: { url: 'data:image/tiff;base64,AAAA' } }],
    };
    assert.throws(() => convert({ messages: [tiff] }), refuses('messages[0].content[0].image_url.url'));
  });

  it('refuses parameters Anthropic cannot honour, naming them', () => {
    assert.throws(() => convert({ temperature: 1.5 }), refuses('temperature'));
    assert.throws(() => convert({ n: 2 }), refuses('n'));
    assert.throws(() => convert({ seed: 1 }), refuses('seed'));
    assert.throws(() => convert({ presence_penalty: 0.5 }), refuses('presence_penalty'));
    assert.throws(() => convert({ logprobs: true }), refuses('logprobs'));
    assert.throws(() => convert({ response_format: { type: 'json_object' } }), refuses('response_format'));
    assert.throws(() => convert({ reasoning_effort: 'high', temperature: 0.5 }), refuses('temperature'));
    assert.throws(() => convert({ verbosity: 'low' }), refuses('verbosity'));
    assert.throws(() => convert({ service_tier: 'flex' }), refuses('service_tier'));
    assert.throws(() => convert({ service_tier: 'priority' }), refuses('service_tier'));
    assert.doesNotThrow(() => convert({ n: 1, presence_penalty: 0, temperature: 1 }));
  });

  it("translates service_tier and leaves out store and prompt_cache_key, which don't change the answer", () => {
    assert.equal(convert({ service_tier: 'default' }).service_tier, 'standard_only');
    assert.equal(convert({ service_tier: 'auto' }).service_tier, 'auto');
    const body = convert({ store: true, prompt_cache_key: 'conversation-1', metadata: { team: 'a' } });
    assert.equal(body.service_tier, undefined);
    assert.deepEqual(Object.keys(body).sort(), ['max_tokens', 'messages', 'model']);
  });

  it('always sets max_tokens: the request, else the model default, else the fallback', () => {
    assert.equal(convert({ max_tokens: 300, max_completion_tokens: 200 }).max_tokens, 200);
    assert.equal(convert({}).max_tokens, 64_000);
    const { defaultMaxOutputTokens: _default, ...withoutDefault } = target;
    assert.equal(convert({}, withoutDefault).max_tokens, fallbackMaxTokens);
  });

  it('translates sampling, stop, user, tools, tool_choice and structured output', () => {
    const body = convert({
      temperature: 0.3,
      top_p: 0.9,
      stop: 'END',
      user: 'user-42',
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' }, strict: true } }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      response_format: { type: 'json_schema', json_schema: { name: 'r', schema: { type: 'object' } } },
    });
    assert.equal(body.temperature, 0.3);
    assert.deepEqual(body.stop_sequences, ['END']);
    assert.deepEqual(body.metadata, { user_id: 'user-42' });
    assert.deepEqual(body.tools, [{ name: 'get_weather', input_schema: { type: 'object' }, strict: true }]);
    assert.deepEqual(body.tool_choice, { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true });
    assert.deepEqual(body.output_config, { format: { type: 'json_schema', schema: { type: 'object' } } });
    const tools = [{ type: 'function' as const, function: { name: 'f' } }];
    assert.deepEqual(convert({ tools, tool_choice: 'required' }).tool_choice, { type: 'any' });
    assert.deepEqual(convert({ tools, tool_choice: 'none' }).tool_choice, { type: 'none' });
    assert.throws(() => convert({ tool_choice: 'required' }), refuses('tool_choice'));
  });

  it('maps reasoning_effort to a thinking budget below max_tokens', () => {
    assert.deepEqual(convert({ reasoning_effort: 'medium' }).thinking, { type: 'enabled', budget_tokens: 8192 });
    assert.deepEqual(convert({ reasoning_effort: 'max', max_tokens: 4000 }).thinking, {
      type: 'enabled',
      budget_tokens: 3999,
    });
    assert.deepEqual(convert({ reasoning_effort: 'none' }).thinking, { type: 'disabled' });
    assert.throws(() => convert({ reasoning_effort: 'low', max_tokens: 1000 }), refuses('max_tokens'));
  });

  it('hands back the thinking block whose signature the tool-call id carries', () => {
    const completion = parseResponseFixture(anthropicAdapter, fixture('tool-call.json'));
    const message = completion.choices[0]?.message;
    assert.ok(message?.tool_calls && message.reasoning_content);
    const body = convert({
      reasoning_effort: 'low',
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: message.content,
          tool_calls: message.tool_calls,
          reasoning_content: message.reasoning_content,
        },
        { role: 'tool', tool_call_id: message.tool_calls[0]?.id ?? '', content: 'sunny' },
      ],
    });
    assert.deepEqual(body.messages[1]?.content[0], {
      type: 'thinking',
      thinking: 'The user wants the weather in Paris; I should call get_weather.',
      signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds+/aBQ==',
    });
    assert.deepEqual(body.messages[2]?.content[0], {
      type: 'tool_result',
      tool_use_id: 'toolu_01A09q90qw90lq917835lq9',
      content: 'sunny',
    });
  });
});

describe('Anthropic responses', () => {
  it('counts cache reads and writes into the prompt and reports cached tokens', () => {
    const usage = parseResponseFixture(anthropicAdapter, fixture('text.json')).usage;
    assert.deepEqual(usage, {
      prompt_tokens: 2160,
      completion_tokens: 11,
      total_tokens: 2171,
      prompt_tokens_details: { cached_tokens: 2048, cache_write_tokens: 100 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
  });

  it('maps a refusal to content_filter', () => {
    assert.equal(
      parseResponseFixture(anthropicAdapter, fixture('refusal.json')).choices[0]?.finish_reason,
      'content_filter',
    );
  });

  it('streams only the text of a server-tool turn, with the cumulative usage of message_delta', async () => {
    const { chunks, error } = await replayStreamFixture(anthropicAdapter, fixture('streamed-web-search.chunks.txt'));
    assert.equal(error, undefined);
    assertChunkStream(chunks, expectedChunkIdentity);
    const choice = accumulateChoice(chunks);
    assert.equal(choice.toolCalls.length, 0);
    assert.equal(choice.finishReason, 'stop');
    assert.equal(findUsage(chunks)?.prompt_tokens, 15_665);
  });

  it('streams thinking as reasoning_content and gives a tool call without argument fragments {}', async () => {
    const { chunks } = await replayStreamFixture(anthropicAdapter, fixture('streamed-tool-call.chunks.txt'));
    const choice = accumulateChoice(chunks);
    assert.equal(choice.reasoning, 'I need the weather in Paris.');
    assert.equal(choice.toolCalls[1]?.arguments, '{}');
    assert.match(choice.toolCalls[0]?.id ?? '', /^toolu_01T1x1fJ34qAmk2tNTrN7Up6__sig_/);
  });
});

describe('Anthropic errors', () => {
  it('returns a request error naming the parameter from the message prefix', () => {
    const failure = anthropicAdapter.parseError(readErrorFixture(fixture('error-body.json')));
    assert.equal(failure.kind, 'request');
    assert.equal(failure.param, 'max_tokens');
    assert.match(failure.message, /^max_tokens: 100000 > 64000/);
  });

  it('fails over on 529 overloaded with retry-after, and on an empty credit balance', () => {
    const overloaded = anthropicAdapter.parseError(readErrorFixture(fixture('overloaded-error.json')));
    assert.deepEqual([overloaded.kind, overloaded.retryAfterMs], ['retryable', 12_000]);
    assert.equal(anthropicAdapter.parseError(readErrorFixture(fixture('billing-error.json'))).kind, 'credential');
  });

  it('turns event: error into a retryable failure with the overload status', async () => {
    const { chunks, error } = await replayStreamFixture(anthropicAdapter, fixture('mid-stream-error.chunks.txt'));
    assert.equal(accumulateChoice(chunks).content, 'Once upon');
    assert.ok(error instanceof Error && 'failure' in error);
    assert.deepEqual(error.failure, {
      kind: 'retryable',
      status: 529,
      message: 'The upstream provider is unavailable (HTTP 529).',
      vendorCode: 'overloaded_error',
    });
  });
});
