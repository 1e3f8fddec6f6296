import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type OpenAI from 'openai';
import type { ChatProviderId } from '../../src/providers/provider-id.ts';
import { startRoutingFixture, type RoutingFixture } from '../support/routing-fixture.ts';

const tools: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Weather for a city',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
        additionalProperties: false,
      },
    },
  },
];
const question: OpenAI.ChatCompletionMessageParam = { role: 'user', content: 'Weather in Paris? [sim:words=6]' };

/**
 * OpenAI-dialect vendors without a catalogue model of their own, reached through operator routes to their simulators
 * and the real adapters: Together, and the self-hosted servers vLLM, Ollama and llama.cpp (issue 3).
 */
const vendors: ReadonlyArray<{
  provider: ChatProviderId;
  path: string;
  model: string;
  upstreamModel: string;
  isReasoning: boolean;
}> = [
  {
    provider: 'together',
    path: '/together/v1',
    model: 'llama-3.3-70b',
    upstreamModel: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
    isReasoning: false,
  },
  {
    provider: 'vllm',
    path: '/vllm/v1',
    model: 'qwen3-coder',
    upstreamModel: 'meta-llama/Llama-3.1-8B-Instruct',
    isReasoning: false,
  },
  { provider: 'ollama', path: '/ollama/v1', model: 'llama-4-maverick', upstreamModel: 'qwen3:8b', isReasoning: true },
  { provider: 'llamacpp', path: '/llamacpp/v1', model: 'kimi-k2', upstreamModel: 'gemma-3-4b-it', isReasoning: false },
];

describe('chat through the Together, vLLM, Ollama and llama.cpp adapters', () => {
  let fixture: RoutingFixture;
  const routeIds = new Map<string, string>();

  before(async () => {
    fixture = await startRoutingFixture();
    for (const vendor of vendors) {
      const route = await fixture.addRoute({
        model: vendor.model,
        provider: vendor.provider,
        base_url: `${fixture.simulatorUrl}${vendor.path}`,
        upstream_model: vendor.upstreamModel,
      });
      routeIds.set(vendor.provider, route.id);
    }
  });
  after(() => fixture.close());

  for (const vendor of vendors) {
    test(`${vendor.provider}: text, streamed text with usage, a streamed tool call and the second turn`, async () => {
      const { client } = fixture;
      const answer = await client.chat.completions.create({
        model: vendor.model,
        messages: [{ role: 'user', content: 'Name three rivers.' }],
      });
      assert.equal(answer.model, vendor.model);
      assert.ok(answer.choices[0]?.message.content, 'text');
      assert.equal(answer.choices[0]?.finish_reason, 'stop');
      assert.ok((answer.usage?.prompt_tokens ?? 0) > 0 && (answer.usage?.completion_tokens ?? 0) > 0);
      assert.equal(await fixture.routeOf(answer.id), routeIds.get(vendor.provider), 'served by the vendor route');

      const stream = await client.chat.completions.create({
        model: vendor.model,
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'Tell me about the sea. [sim:words=5]' }],
      });
      const chunks: OpenAI.ChatCompletionChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      assert.ok(chunks.every((chunk) => chunk.model === vendor.model && chunk.id === chunks[0]?.id));
      const deltas = chunks.map((chunk) => chunk.choices[0]?.delta);
      assert.ok(deltas.map((delta) => delta?.content ?? '').join('').length > 0, 'streamed text');
      const reasoning = deltas.map((delta) => (delta as { reasoning_content?: string })?.reasoning_content ?? '');
      assert.equal(reasoning.join('').length > 0, vendor.isReasoning, 'reasoning text as reasoning_content');
      assert.deepEqual(chunks.at(-1)?.choices, []);
      assert.ok((chunks.at(-1)?.usage?.completion_tokens ?? 0) > 0, 'final usage chunk');

      const toolStream = await client.chat.completions.create({
        model: vendor.model,
        tools,
        tool_choice: 'required',
        stream: true,
        messages: [question],
      });
      const calls: OpenAI.ChatCompletionChunk.Choice.Delta.ToolCall[] = [];
      let finishReason: string | null | undefined;
      for await (const chunk of toolStream) {
        calls.push(...(chunk.choices[0]?.delta.tool_calls ?? []));
        finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
      }
      assert.equal(finishReason, 'tool_calls');
      const withId = calls.filter((call) => call.id !== undefined);
      assert.equal(withId.length, 1, 'id and name only in the first delta of the call');
      assert.equal(withId[0]?.function?.name, 'get_weather');
      const argumentsText = calls.map((call) => call.function?.arguments ?? '').join('');
      assert.equal(typeof (JSON.parse(argumentsText) as { city: unknown }).city, 'string');

      const second = await client.chat.completions.create({
        model: vendor.model,
        tools,
        messages: [
          question,
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: withId[0]!.id!, type: 'function', function: { name: 'get_weather', arguments: argumentsText } },
            ],
          },
          { role: 'tool', tool_call_id: withId[0]!.id!, content: '{"temperature": 21}' },
        ],
      });
      assert.ok(second.choices[0]?.message.content, 'an answer after the tool result');
      assert.equal(second.choices[0]?.finish_reason, 'stop');
    });
  }
});
