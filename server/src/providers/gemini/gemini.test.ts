import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../errors/invalid-request-error.ts';
import type { ChatRequest } from '../../openai-api/chat-request.ts';
import { UpstreamFailureError } from '../provider-adapter.ts';
import { accumulateChoice, assertChunkStream, findUsage } from '../test-support/assert-chunk-stream.ts';
import {
  expectedChunkIdentity,
  parseResponseFixture,
  readErrorFixture,
  replayStreamFixture,
} from '../test-support/replay-fixture.ts';
import { convertRequest } from './convert-request.ts';
import { geminiAdapter } from './gemini-adapter.ts';

const fixture = (name: string) => new URL(`./__fixtures__/${name}`, import.meta.url);
const target = {
  baseUrl: 'https://generativelanguage.googleapis.com',
  credential: 'AIza-test',
  upstreamModel: 'gemini-2.5-flash',
};

const convert = (request: Partial<ChatRequest> & Record<string, unknown>) =>
  convertRequest({ model: 'gemini', messages: [{ role: 'user', content: 'Hi' }], ...request });

const refuses = (param: string) => (error: unknown) => {
  assert.ok(error instanceof InvalidRequestError, String(error));
  assert.equal(error.param, param);
  return true;
};

describe('Gemini request', () => {
  it('calls generateContent, or streamGenerateContent with alt=sse, with x-goog-api-key', () => {
    const request: ChatRequest = { model: 'gemini', messages: [{ role: 'user', content: 'Hi' }] };
    const plain = geminiAdapter.buildRequest({ request, target, isStreaming: false });
    assert.equal(plain.url, 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent');
    assert.equal(plain.headers['x-goog-api-key'], 'AIza-test');
    const streamed = geminiAdapter.buildRequest({
      request,
      target: { ...target, upstreamModel: 'models/gemini-3-pro-preview' },
      isStreaming: true,
    });
    assert.equal(
      streamed.url,
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse',
    );
  });

  it('hoists system text, names the model role and turns tool results into named functionResponses', () => {
    const body = convert({
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a', content: '21 C' },
        { role: 'tool', tool_call_id: 'call_b', content: '12:00' },
      ],
    });
    assert.deepEqual(body.systemInstruction, { parts: [{ text: 'You are terse.' }] });
    assert.deepEqual(body.contents, [
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      {
        role: 'model',
        parts: [
          {
            functionCall: { name: 'get_weather', args: { city: 'Paris' } },
            thoughtSignature: 'skip_thought_signature_validator',
          },
          { functionCall: { name: 'get_time', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { output: '21 C' } } },
          { functionResponse: { name: 'get_time', response: { output: '12:00' } } },
        ],
      },
    ]);
  });

  it('restores thoughtSignature from the tool-call ids it gave the client', () => {
    const message = parseResponseFixture(geminiAdapter, fixture('tool-call.json')).choices[0]?.message;
    assert.ok(message?.tool_calls);
    const body = convert({
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: null, tool_calls: message.tool_calls },
        ...message.tool_calls.map((call) => ({ role: 'tool' as const, tool_call_id: call.id, content: 'ok' })),
      ],
    });
    assert.deepEqual(body.contents[1]?.parts, [
      { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'EqUCCqICAdHtim9+/PZxAA==' },
      { functionCall: { name: 'get_time', args: { zone: 'CET' } } },
    ]);
  });

  it('refuses a tool result that answers no known call', () => {
    const messages: ChatRequest['messages'] = [
      { role: 'user', content: 'Hi' },
      { role: 'tool', tool_call_id: 'call_unknown', content: 'x' },
    ];
    assert.throws(() => convert({ messages }), refuses('messages[1].tool_call_id'));
  });

  it('sends data-URL images inline and https images as fileData with the type from the extension', () => {
    const body = convert({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: 'data:image/webp;base64,UklGRg==' } },
            { type: 'image_url', image_url: { url: 'https://example.com/a/cat.PNG?size=2' } },
            { type: 'image_url', image_url: { url: 'https://example.com/render' } },
          ],
        },
      ],
    });
    assert.deepEqual(body.contents[0]?.parts, [
      { inlineData: { mimeType: 'image/webp', data: 'UklGRg==' } },
      { fileData: { fileUri: 'https://example.com/a/cat.PNG?size=2', mimeType: 'image/png' } },
      { fileData: { fileUri: 'https://example.com/render' } },
    ]);
  });

  it('maps generation settings, tools, tool_choice, JSON output and reasoning', () => {
    const body = convert({
      temperature: 1.5,
      top_p: 0.9,
      max_tokens: 100,
      stop: ['END'],
      seed: 3,
      frequency_penalty: 0.5,
      tools: [
        { type: 'function', function: { name: 'get_weather', description: 'd', parameters: { type: 'object' } } },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      response_format: { type: 'json_schema', json_schema: { name: 'r', schema: { type: 'object' } } },
      reasoning_effort: 'low',
    });
    assert.deepEqual(body.generationConfig, {
      temperature: 1.5,
      topP: 0.9,
      maxOutputTokens: 100,
      stopSequences: ['END'],
      seed: 3,
      frequencyPenalty: 0.5,
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object' },
      thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
    });
    assert.deepEqual(body.tools, [
      { functionDeclarations: [{ name: 'get_weather', description: 'd', parametersJsonSchema: { type: 'object' } }] },
    ]);
    assert.deepEqual(body.toolConfig, {
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] },
    });
  });

  it('refuses n > 1, OpenAI-only parameters and function names Gemini rejects', () => {
    assert.throws(() => convert({ n: 2 }), refuses('n'));
    assert.throws(() => convert({ logit_bias: { '50256': -100 } }), refuses('logit_bias'));
    assert.throws(() => convert({ verbosity: 'high' }), refuses('verbosity'));
    assert.throws(() => convert({ service_tier: 'flex' }), refuses('service_tier'));
    assert.throws(
      () => convert({ tools: [{ type: 'function', function: { name: '1st' } }] }),
      refuses('tools[0].function.name'),
    );
  });

  it('refuses parallel_tool_calls: false when a tool may be called, since Gemini cannot be held to one call', () => {
    const tools = [{ type: 'function' as const, function: { name: 'get_weather' } }];
    assert.throws(() => convert({ tools, parallel_tool_calls: false }), refuses('parallel_tool_calls'));
    assert.throws(
      () =>
        convert({
          tools,
          parallel_tool_calls: false,
          tool_choice: { type: 'function', function: { name: 'get_weather' } },
        }),
      refuses('parallel_tool_calls'),
    );
    assert.deepEqual(convert({ tools, parallel_tool_calls: true }), convert({ tools }));
    assert.deepEqual(convert({ parallel_tool_calls: false }), convert({}), 'no tools: no call can come');
    const toolsOff = { tools, tool_choice: 'none' as const };
    assert.deepEqual(convert({ ...toolsOff, parallel_tool_calls: false }), convert(toolsOff));
  });

  it('accepts the standard service tier and ignores store, prompt_cache_key and cache_control, which change nothing', () => {
    const plain = convert({});
    const body = convert({
      service_tier: 'auto',
      store: true,
      prompt_cache_key: 'conversation-1',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }] }],
    });
    assert.deepEqual(body, plain);
    assert.deepEqual(convert({ service_tier: 'default' }), plain);
  });
});

describe('Gemini responses', () => {
  it('counts tool-use prompt tokens as input and thoughts as output, matching totalTokenCount', () => {
    assert.deepEqual(parseResponseFixture(geminiAdapter, fixture('text.json')).usage, {
      prompt_tokens: 325,
      completion_tokens: 370,
      total_tokens: 695,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 333 },
    });
  });

  it('derives the same tool-call ids for the same response', () => {
    const first = parseResponseFixture(geminiAdapter, fixture('tool-call.json')).choices[0]?.message.tool_calls;
    const again = parseResponseFixture(geminiAdapter, fixture('tool-call.json')).choices[0]?.message.tool_calls;
    assert.deepEqual(first, again);
    assert.match(first?.[0]?.id ?? '', /^call_[0-9a-f]{24}__sig_EqUCCqICAdHtim9-_PZxAA$/);
    assert.match(first?.[1]?.id ?? '', /^call_[0-9a-f]{24}$/);
  });

  it('answers a blocked prompt with an empty choice finished by content_filter', () => {
    const choice = parseResponseFixture(geminiAdapter, fixture('prompt-blocked.json')).choices[0];
    assert.equal(choice?.finish_reason, 'content_filter');
  });

  it('streams CRLF events with split UTF-8, thoughts as reasoning and usage once from the last chunk', async () => {
    const { chunks, error } = await replayStreamFixture(geminiAdapter, fixture('streamed-text-with-usage.chunks.txt'));
    assert.equal(error, undefined);
    assertChunkStream(chunks, expectedChunkIdentity);
    const choice = accumulateChoice(chunks);
    assert.equal(choice.content, 'Hello — héllo 👋 there!');
    assert.equal(choice.reasoning, 'Thinking about a greeting.');
    assert.equal(chunks.filter((chunk) => chunk.usage).length, 1);
    assert.deepEqual(findUsage(chunks)?.prompt_tokens_details, { cached_tokens: 4 });
    assert.equal(findUsage(chunks)?.completion_tokens, 34);
  });

  it('streams a whole function call as its identity, then its complete arguments, and finishes with tool_calls', async () => {
    const { chunks } = await replayStreamFixture(geminiAdapter, fixture('streamed-tool-call.chunks.txt'));
    const toolDeltas = chunks.flatMap((chunk) => chunk.choices.flatMap((choice) => choice.delta.tool_calls ?? []));
    assert.equal(toolDeltas.length, 2);
    assert.equal(toolDeltas[1]?.function.arguments, '{"location":"San Francisco"}');
    assert.equal(accumulateChoice(chunks).finishReason, 'tool_calls');
  });
});

describe('Gemini errors', () => {
  it('fails over on 429 with the RetryInfo delay', () => {
    const failure = geminiAdapter.parseError(readErrorFixture(fixture('error-body.json')));
    assert.deepEqual(failure, {
      kind: 'retryable',
      status: 429,
      message: 'The upstream provider is rate limiting requests.',
      vendorCode: 'RESOURCE_EXHAUSTED',
      retryAfterMs: 34_400,
    });
  });

  it('treats API_KEY_INVALID on a 400 as our credential, other 400s as the request with a param', () => {
    assert.equal(geminiAdapter.parseError(readErrorFixture(fixture('invalid-key-error.json'))).kind, 'credential');
    const invalid = geminiAdapter.parseError(readErrorFixture(fixture('invalid-argument-error.json')));
    assert.deepEqual([invalid.kind, invalid.param], ['request', 'max_tokens']);
  });

  it('turns an error event after the headers into a failure with its code as status', async () => {
    const { error } = await replayStreamFixture(geminiAdapter, fixture('mid-stream-error.chunks.txt'));
    assert.ok(error instanceof UpstreamFailureError);
    assert.deepEqual([error.failure.kind, error.failure.status], ['retryable', 503]);
  });
});
