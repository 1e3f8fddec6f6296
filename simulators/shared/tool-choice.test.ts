import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSimulator, type RunningSimulator } from '../start-simulator.ts';
import { anthropicHeaders, bearer, postJson, weatherTool } from '../test-support/read-sse.ts';

let simulator: RunningSimulator;
before(async () => {
  simulator = await startSimulator();
});
after(() => simulator.close());

const chatWeatherTool = { type: 'function', function: weatherTool };
const finalResultTool = {
  type: 'function',
  function: {
    name: 'final_result',
    description: 'The final response',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, degrees: { type: 'integer' } },
      required: ['city', 'degrees'],
    },
  },
};
type ChatAnswer = {
  choices: Array<{ message: { content: string | null; tool_calls?: Array<{ function: { name: string } }> } }>;
};

/** Issue #18: agent frameworks need tool_choice honoured on every round, as the vendors do. */
describe('simulated tool choice, every round', () => {
  const chat = async (body: Record<string, unknown>) => {
    const response = await postJson(`${simulator.url}/openai/v1/chat/completions`, {
      body: { model: 'gpt-4o', ...body },
      headers: bearer,
    });
    assert.equal(response.status, 200);
    return ((await response.json()) as ChatAnswer).choices[0]?.message;
  };
  const afterToolResult = [
    { role: 'user', content: 'Weather in Paris?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'call_1', content: 'Sunny' },
  ];

  it('required calls a tool after a tool result, choosing the structured-output tool that ends the run', async () => {
    const first = await chat({
      messages: afterToolResult.slice(0, 1),
      tools: [chatWeatherTool, finalResultTool],
      tool_choice: 'required',
    });
    assert.equal(first?.tool_calls?.[0]?.function.name, 'get_weather');
    const second = await chat({
      messages: afterToolResult,
      tools: [chatWeatherTool, finalResultTool],
      tool_choice: 'required',
    });
    assert.equal(second?.tool_calls?.[0]?.function.name, 'final_result');
    const auto = await chat({ messages: afterToolResult, tools: [chatWeatherTool, finalResultTool] });
    assert.equal(auto?.tool_calls, undefined, 'auto answers in text after a result');
  });

  it('a named tool is called on every round; none never calls one', async () => {
    const named = { type: 'function', function: { name: 'final_result' } };
    for (const messages of [afterToolResult.slice(0, 1), afterToolResult]) {
      const answer = await chat({ messages, tools: [chatWeatherTool, finalResultTool], tool_choice: named });
      assert.equal(answer?.tool_calls?.[0]?.function.name, 'final_result');
    }
    const none = await chat({ messages: afterToolResult.slice(0, 1), tools: [chatWeatherTool], tool_choice: 'none' });
    assert.equal(none?.tool_calls, undefined);
    assert.ok((none?.content ?? '').length > 0);
  });

  it('Anthropic any is honoured after a tool result too', async () => {
    const response = await postJson(`${simulator.url}/anthropic/v1/messages`, {
      body: {
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        tool_choice: { type: 'any' },
        tools: [
          { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
          { name: 'final_result', input_schema: finalResultTool.function.parameters },
        ],
        messages: [
          { role: 'user', content: 'Weather?' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Sunny' }] },
        ],
      },
      headers: anthropicHeaders,
    });
    assert.equal(response.status, 200);
    const message = (await response.json()) as { content: Array<{ type: string; name?: string }>; stop_reason: string };
    assert.equal(message.stop_reason, 'tool_use');
    assert.equal(message.content.find((block) => block.type === 'tool_use')?.name, 'final_result');
  });

  it('JSON mode follows a schema given only in the prompt', async () => {
    const schema = {
      type: 'object',
      properties: { river: { type: 'string' }, km: { type: 'integer' } },
      required: ['river', 'km'],
    };
    const answer = await chat({
      messages: [
        { role: 'user', content: `Name a river. Reply with JSON matching this schema: ${JSON.stringify(schema)}` },
      ],
      response_format: { type: 'json_object' },
    });
    const value = JSON.parse(answer?.content ?? '') as Record<string, unknown>;
    assert.deepEqual(Object.keys(value).sort(), ['km', 'river']);
    assert.equal(typeof value.river, 'string');
    assert.ok(Number.isInteger(value.km));
  });
});
