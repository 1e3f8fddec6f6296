import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../errors/invalid-request-error.ts';
import type { ChatRequest } from '../../openai-api/chat-request.ts';
import { UpstreamFailureError } from '../provider-adapter.ts';
import { providerAdapters } from '../registry.ts';
import { accumulateChoice, assertChunkStream, findUsage } from '../test-support/assert-chunk-stream.ts';
import {
  expectedChunkIdentity,
  parseResponseFixture,
  readErrorFixture,
  replayStreamFixture,
} from '../test-support/replay-fixture.ts';
import type { CompatibleVendorId } from '../provider-id.ts';
import { toMistralToolCallId } from '../mistral/mistral-quirks.ts';

const fixture = (vendor: CompatibleVendorId, name: string) =>
  new URL(`../${vendor}/__fixtures__/${name}`, import.meta.url);
const parse = (vendor: CompatibleVendorId, name: string) =>
  parseResponseFixture(providerAdapters[vendor], fixture(vendor, name));
const replay = (vendor: CompatibleVendorId, name: string) =>
  replayStreamFixture(providerAdapters[vendor], fixture(vendor, name));
const parseError = (vendor: CompatibleVendorId, name: string) =>
  providerAdapters[vendor].parseError(readErrorFixture(fixture(vendor, name)));

function buildBody(vendor: CompatibleVendorId, request: Partial<ChatRequest>, isStreaming = true) {
  const built = providerAdapters[vendor].buildRequest({
    request: { model: 'm', messages: [{ role: 'user', content: 'Hi' }], ...request },
    target: { baseUrl: 'https://api.example.com/v1', credential: undefined, upstreamModel: 'vendor-model' },
    isStreaming,
  });
  assert.equal(built.url, 'https://api.example.com/v1/chat/completions');
  assert.equal(built.headers['authorization'], undefined, 'no key, no authorization header');
  return JSON.parse(built.body) as Record<string, unknown>;
}

const toolHistory: ChatRequest['messages'] = [
  { role: 'user', content: 'Weather?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_abc123__sig_xyz', type: 'function', function: { name: 'w', arguments: '{}' } }],
  },
  { role: 'tool', tool_call_id: 'call_abc123__sig_xyz', content: 'sunny' },
];

describe('OpenAI-compatible requests', () => {
  it('sends the output limit as max_tokens and always asks for streamed usage', () => {
    const body = buildBody('deepseek', { max_completion_tokens: 30, stream_options: { include_usage: false } });
    assert.equal(body['max_tokens'], 30);
    assert.equal(body['max_completion_tokens'], undefined);
    assert.deepEqual(body['stream_options'], { include_usage: true });
  });

  it('uses max_completion_tokens for Groq', () => {
    assert.equal(buildBody('groq', { max_tokens: 30 })['max_completion_tokens'], 30);
  });

  it('refuses n > 1 for Groq, which serves one choice per request, and passes n on to the others', () => {
    assert.throws(
      () => buildBody('groq', { n: 2 }),
      (error: unknown) => error instanceof InvalidRequestError && error.param === 'n' && error.status === 400,
    );
    assert.equal(buildBody('groq', { n: 1 })['n'], 1);
    assert.equal(buildBody('deepseek', { n: 2 })['n'], 2);
  });

  it('rewrites ids, seed and tool_choice for Mistral and sends no stream_options', () => {
    const body = buildBody('mistral', {
      messages: toolHistory,
      seed: 5,
      tool_choice: 'required',
      tools: [{ type: 'function', function: { name: 'w' } }],
    });
    const id = toMistralToolCallId('call_abc123');
    assert.match(id, /^[a-zA-Z0-9]{9}$/);
    assert.equal(toMistralToolCallId('call_abc123'), id, 'deterministic');
    assert.equal(toMistralToolCallId('D681PevKs'), 'D681PevKs', 'Mistral ids pass unchanged');
    const messages = body['messages'] as Array<Record<string, unknown>>;
    assert.deepEqual((messages[1]?.['tool_calls'] as Array<{ id: string }>)[0]?.id, id);
    assert.equal(messages[2]?.['tool_call_id'], id);
    assert.equal(body['random_seed'], 5);
    assert.equal(body['seed'], undefined);
    assert.equal(body['tool_choice'], 'any');
    assert.equal(body['stream_options'], undefined);
  });
});

describe('OpenAI-compatible quirks', () => {
  it('DeepSeek: reasoning_content, and cache hits counted from prompt_cache_hit_tokens', () => {
    assert.equal(
      parse('deepseek', 'text.json').choices[0]?.message.reasoning_content,
      'Compare the decimals: 0.11 < 0.8.',
    );
    assert.deepEqual(parse('deepseek', 'cache-hit-usage.json').usage?.prompt_tokens_details, { cached_tokens: 1024 });
  });

  it('DeepSeek: skips keep-alive comments and streams reasoning before content', async () => {
    const { chunks } = await replay('deepseek', 'streamed-text-with-usage.chunks.txt');
    const choice = accumulateChoice(chunks);
    assert.equal(choice.reasoning, 'Compare 0.11 and 0.8.');
    assert.equal(choice.content, '9.11 is smaller.');
  });

  it('DeepSeek: insufficient_system_resource and 402 Insufficient Balance are failures to fail over', async () => {
    const { error } = await replay('deepseek', 'insufficient-system-resource.chunks.txt');
    assert.ok(error instanceof UpstreamFailureError && error.failure.kind === 'retryable');
    assert.equal(parseError('deepseek', 'error-body.json').kind, 'credential');
  });

  it('Mistral: unwrapped error bodies, validation details and a whole tool call on the finish chunk', async () => {
    const failure = parseError('mistral', 'error-body.json');
    assert.deepEqual([failure.kind, failure.vendorCode], ['request', '3280']);
    assert.match(failure.message, /must be a-z, A-Z, 0-9, with a length of 9/);
    const validation = parseError('mistral', 'validation-error-body.json');
    assert.deepEqual(
      [validation.param, validation.message],
      ['stream_options', 'stream_options: Extra inputs are not permitted'],
    );
    const { chunks } = await replay('mistral', 'streamed-tool-call.chunks.txt');
    assertChunkStream(chunks, expectedChunkIdentity);
    assert.deepEqual(accumulateChoice(chunks).toolCalls, [
      { id: 'D681PevKs', name: 'get_weather', arguments: '{"city": "Paris"}' },
    ]);
    assert.equal(findUsage(chunks)?.total_tokens, 117);
  });

  it('xAI: usage on the second-to-last chunk is sent once, and reasoning tokens counted apart are added to output', async () => {
    const { chunks } = await replay('xai', 'streamed-text-with-usage.chunks.txt');
    assert.equal(chunks.filter((chunk) => chunk.usage).length, 1);
    assert.equal(findUsage(chunks)?.completion_tokens, 8);
    const usage = parse('xai', 'text.json').usage;
    assert.deepEqual([usage?.completion_tokens, usage?.total_tokens], [103, 135]);
  });

  it('xAI: string error bodies, before and after the headers', async () => {
    const failure = parseError('xai', 'error-body.json');
    assert.equal(failure.kind, 'request');
    assert.match(failure.message, /maximum prompt length is 131072/);
    const { error } = await replay('xai', 'mid-stream-error.chunks.txt');
    assert.ok(error instanceof UpstreamFailureError);
    assert.deepEqual([error.failure.kind, error.failure.status], ['retryable', 503]);
  });

  it('Groq: x_groq.usage is used only when no standard usage chunk comes', async () => {
    const both = await replay('groq', 'streamed-text-with-usage.chunks.txt');
    assert.equal(both.chunks.filter((chunk) => chunk.usage).length, 1);
    const older = await replay('groq', 'streamed-x-groq-usage-only.chunks.txt');
    assertChunkStream(older.chunks, expectedChunkIdentity);
    assert.deepEqual([findUsage(older.chunks)?.prompt_tokens, findUsage(older.chunks)?.completion_tokens], [24, 3]);
    const limited = parseError('groq', 'error-body.json');
    assert.deepEqual([limited.kind, limited.retryAfterMs], ['retryable', 10_000]);
  });

  it('Together: usage on the finish chunk moves to a final chunk; eos finishes as stop', async () => {
    const { chunks } = await replay('together', 'streamed-text-with-usage.chunks.txt');
    assertChunkStream(chunks, expectedChunkIdentity);
    assert.equal(findUsage(chunks)?.total_tokens, 43);
    assert.equal(parse('together', 'text.json').choices[0]?.finish_reason, 'stop');
    assert.equal(parseError('together', 'error-body.json').param, 'max_tokens');
  });

  it('OpenRouter: reasoning field, integer error codes and the error chunk mid-stream', async () => {
    const { chunks } = await replay('openrouter', 'streamed-text-with-usage.chunks.txt');
    assert.equal(accumulateChoice(chunks).reasoning, 'Paris is the capital.');
    assert.equal(parseError('openrouter', 'error-body.json').kind, 'credential');
    const { error } = await replay('openrouter', 'mid-stream-error.chunks.txt');
    assert.ok(error instanceof UpstreamFailureError);
    assert.deepEqual([error.failure.kind, error.failure.vendorCode], ['retryable', 'server_error']);
  });

  it('vLLM: both reasoning fields, unwrapped and wrapped integer-code errors', async () => {
    assert.equal(parse('vllm', 'text.json').choices[0]?.message.reasoning_content, 'The user greets me.');
    const { chunks } = await replay('vllm', 'streamed-text-with-usage.chunks.txt');
    assert.equal(accumulateChoice(chunks).reasoning, 'Greeting.');
    const unwrapped = parseError('vllm', 'error-body.json');
    assert.deepEqual([unwrapped.kind, unwrapped.vendorCode], ['request', '400']);
    assert.match(unwrapped.message, /maximum context length is 4096 tokens/);
    assert.equal(parseError('vllm', 'wrapped-error-body.json').kind, 'credential');
  });

  it('Ollama: reasoning field and a missing model as a route problem', () => {
    assert.equal(parse('ollama', 'text.json').choices[0]?.message.reasoning_content, 'A simple greeting.');
    assert.equal(parseError('ollama', 'error-body.json').kind, 'credential');
  });

  it('llama.cpp: integer error codes before and after the headers', async () => {
    const failure = parseError('llamacpp', 'error-body.json');
    assert.deepEqual([failure.kind, failure.vendorCode], ['request', '400']);
    assert.match(failure.message, /exceeds the available context size/);
    const { error } = await replay('llamacpp', 'mid-stream-error.chunks.txt');
    assert.ok(error instanceof UpstreamFailureError);
    assert.equal(error.failure.status, 500);
  });
});
