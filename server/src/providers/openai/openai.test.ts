import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatRequest } from '../../openai-api/chat-request.ts';
import { UpstreamFailureError, type SseEvent } from '../provider-adapter.ts';
import { accumulateChoice, assertChunkStream } from '../test-support/assert-chunk-stream.ts';
import {
  expectedChunkIdentity,
  parseResponseFixture,
  readErrorFixture,
  replayStreamFixture,
  testIdentity,
} from '../test-support/replay-fixture.ts';
import { openAiAdapter } from './openai-adapter.ts';

const fixture = (name: string) => new URL(`./__fixtures__/${name}`, import.meta.url);
const target = { baseUrl: 'https://api.openai.com/v1', credential: 'sk-test', upstreamModel: 'gpt-4o-2024-08-06' };

function build(request: Partial<ChatRequest> & Record<string, unknown>, isStreaming = false) {
  const built = openAiAdapter.buildRequest({
    request: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], ...request },
    target,
    isStreaming,
  });
  return { ...built, json: JSON.parse(built.body) as Record<string, unknown> };
}

async function* eventsOf(data: unknown[]): AsyncGenerator<SseEvent> {
  for (const item of data) yield { event: undefined, data: item };
}

describe('OpenAI request', () => {
  it('posts to <base>/chat/completions with a bearer key and the upstream model', () => {
    const built = build({});
    assert.equal(built.url, 'https://api.openai.com/v1/chat/completions');
    assert.equal(built.headers['authorization'], 'Bearer sk-test');
    assert.equal(built.json['model'], 'gpt-4o-2024-08-06');
    assert.equal(built.json['stream'], false);
  });

  it('always asks for usage when streaming, whatever the client asked, keeping its other stream options', () => {
    const built = build({ stream: true, stream_options: { include_usage: false, include_obfuscation: false } }, true);
    assert.deepEqual(built.json['stream_options'], { include_usage: true, include_obfuscation: false });
    assert.equal(built.json['stream'], true);
    assert.equal(built.headers['accept'], 'text/event-stream');
  });

  it('sends no stream_options without streaming', () => {
    assert.equal(build({ stream_options: { include_usage: true } }).json['stream_options'], undefined);
  });

  it('sends the output limit as max_completion_tokens, the smaller one when both are set', () => {
    assert.deepEqual(pick(build({ max_tokens: 50 }).json), { max_completion_tokens: 50 });
    assert.deepEqual(pick(build({ max_tokens: 50, max_completion_tokens: 40 }).json), { max_completion_tokens: 40 });
  });

  it('passes unknown and known fields through unchanged', () => {
    const json = build({
      temperature: 0.2,
      seed: 7,
      n: 2,
      reasoning_effort: 'high',
      user: 'u1',
      metadata: { a: 'b' },
      logprobs: true,
      service_tier: 'flex',
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' }, strict: true } },
    }).json;
    assert.equal(json['service_tier'], 'flex');
    assert.equal(json['logprobs'], true);
    assert.equal(json['n'], 2);
    assert.deepEqual(json['metadata'], { a: 'b' });
    assert.equal(json['reasoning_effort'], 'high');
  });

  it('removes the gateway signature suffix from replayed tool-call ids', () => {
    const json = build({
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1__sig_AbC', type: 'function', function: { name: 'w', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1__sig_AbC', content: 'sunny' },
      ],
    }).json;
    assert.match(JSON.stringify(json['messages']), /"id":"call_1".*"tool_call_id":"call_1"/);
  });
});

function pick(json: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(json).filter(([key]) => key.startsWith('max_')));
}

describe('OpenAI responses', () => {
  it('keeps usage details and answers for the requested model', () => {
    const completion = parseResponseFixture(openAiAdapter, fixture('tool-call.json'));
    assert.equal(completion.model, testIdentity.requestedModel);
    assert.equal(completion.choices[0]?.message.content, null);
    assert.deepEqual(completion.usage?.prompt_tokens_details, { cached_tokens: 64 });
  });

  it('drops url_citation annotations: chat answers carry no citations (docs/api.md), whole or streamed', async () => {
    const message = parseResponseFixture(openAiAdapter, fixture('search-annotations.json')).choices[0]?.message;
    assert.equal(
      message?.content,
      'Spain won Euro 2024 ([uefa.com](https://www.uefa.com/euro2024/?utm_source=openai)).',
    );
    assert.equal(message !== undefined && 'annotations' in message, false);
    const annotation = {
      type: 'url_citation',
      url_citation: { url: 'https://www.uefa.com/', title: 'UEFA', start_index: 0, end_index: 5 },
    };
    const chunks = [];
    for await (const chunk of openAiAdapter.parseStream({
      events: eventsOf([
        { choices: [{ index: 0, delta: { role: 'assistant', content: 'Spain' }, finish_reason: null }] },
        { choices: [{ index: 0, delta: { annotations: [annotation] }, finish_reason: null }] },
        { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      ]),
      ...testIdentity,
    })) {
      chunks.push(chunk);
    }
    assertChunkStream(chunks, expectedChunkIdentity);
    assert.ok(chunks.every((chunk) => chunk.choices.every((choice) => !('annotations' in choice.delta))));
  });

  it('streams parallel tool calls with dense indices', async () => {
    const { chunks } = await replayStreamFixture(openAiAdapter, fixture('streamed-tool-call.chunks.txt'));
    assertChunkStream(chunks, expectedChunkIdentity);
    assert.deepEqual(accumulateChoice(chunks).toolCalls, [
      { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { id: 'call_2', name: 'get_time', arguments: '{"zone":"CET"}' },
    ]);
  });

  it('treats a stream that ends without a finish reason as cut off', async () => {
    const chunk = { choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] };
    const stream = openAiAdapter.parseStream({ events: eventsOf([chunk]), ...testIdentity });
    await assert.rejects(
      async () => {
        for await (const _chunk of stream);
      },
      (error: unknown) => error instanceof UpstreamFailureError && error.failure.vendorCode === 'stream_truncated',
    );
  });

  it('opens a new tool call when a server reuses index 0 for parallel calls', async () => {
    const call = (id: string, name: string) => ({
      choices: [
        { index: 0, delta: { tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '{}' } }] } },
      ],
    });
    const finish = { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] };
    const chunks = [];
    for await (const chunk of openAiAdapter.parseStream({
      events: eventsOf([call('a', 'f'), call('b', 'g'), finish]),
      ...testIdentity,
    })) {
      chunks.push(chunk);
    }
    assertChunkStream(chunks, expectedChunkIdentity);
    assert.deepEqual(
      accumulateChoice(chunks).toolCalls.map((entry) => entry.id),
      ['a', 'b'],
    );
  });
});

describe('OpenAI errors', () => {
  it('returns a 400 to the client with the vendor message and param', () => {
    const failure = openAiAdapter.parseError(readErrorFixture(fixture('error-body.json')));
    assert.deepEqual(failure, {
      kind: 'request',
      status: 400,
      message: "Invalid type for 'temperature': expected a decimal, but got a string instead.",
      param: 'temperature',
      vendorCode: 'invalid_type',
    });
  });

  it('fails over on 429 with the delay from retry-after-ms, without echoing the organisation', () => {
    const failure = openAiAdapter.parseError(readErrorFixture(fixture('rate-limit-error.json')));
    assert.equal(failure.kind, 'retryable');
    assert.equal(failure.retryAfterMs, 19_876);
    assert.doesNotMatch(failure.message, /org-/);
  });

  it('treats an exhausted quota and a rejected key as our route failing', () => {
    assert.equal(openAiAdapter.parseError(readErrorFixture(fixture('quota-error.json'))).kind, 'credential');
    assert.equal(openAiAdapter.parseError(readErrorFixture(fixture('invalid-key-error.json'))).kind, 'credential');
  });

  it('reads a mid-stream server error as retryable', async () => {
    const { chunks, error } = await replayStreamFixture(openAiAdapter, fixture('mid-stream-error.chunks.txt'));
    assert.equal(accumulateChoice(chunks).content, 'The answer');
    assert.ok(error instanceof UpstreamFailureError);
    assert.equal(error.failure.kind, 'retryable');
    assert.equal(error.failure.status, 500);
  });
});
