import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSimulator, type RunningSimulator } from '../start-simulator.ts';
import {
  bearer,
  isValidWeatherArguments,
  jsonPayloads,
  postJson,
  readSse,
  weatherTool,
} from '../test-support/read-sse.ts';

let simulator: RunningSimulator;
let chatUrl: string;
before(async () => {
  simulator = await startSimulator();
  chatUrl = `${simulator.url}/openai/v1/chat/completions`;
});
after(() => simulator.close());

const hello = [{ role: 'user', content: 'Say something about rivers.' }];
type Completion = {
  model: string;
  choices: { message: Record<string, unknown>; finish_reason: string }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } & Record<
    string,
    Record<string, number>
  >;
};

describe('OpenAI chat completions simulator', () => {
  it('answers a text completion with a dated model, usage and a request id', async () => {
    const response = await postJson(chatUrl, { body: { model: 'gpt-4o', messages: hello }, headers: bearer });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('x-request-id') ?? '', /^req_[0-9a-f]{32}$/);
    const body = (await response.json()) as Completion;
    assert.equal(body.model, 'gpt-4o-2024-08-06');
    const choice = body.choices[0];
    assert.ok(choice);
    assert.equal(choice.finish_reason, 'stop');
    assert.equal(typeof choice.message['content'], 'string');
    assert.equal(choice.message['refusal'], null);
    assert.ok(!String(choice.message['content']).includes('rivers'));
    assert.equal(body.usage.total_tokens, body.usage.prompt_tokens + body.usage.completion_tokens);
    assert.equal(body.usage.completion_tokens, String(choice.message['content']).split(' ').length);
    assert.ok(body.usage.completion_tokens >= 30 && body.usage.completion_tokens <= 50);
  });

  it('is deterministic and streams the same text whose token count equals the usage', async () => {
    const plain = (await (
      await postJson(chatUrl, { body: { model: 'gpt-4o', messages: hello }, headers: bearer })
    ).json()) as Completion;
    const response = await postJson(chatUrl, {
      body: { model: 'gpt-4o', messages: hello, stream: true, stream_options: { include_usage: true } },
      headers: bearer,
    });
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    const read = await readSse(response);
    assert.equal(read.events.at(-1)?.data, '[DONE]');
    assert.ok(read.raw.endsWith('data: [DONE]\n\n'));
    const chunks = jsonPayloads(read) as Record<string, unknown>[];
    const ids = new Set(chunks.map((chunk) => chunk['id']));
    assert.equal(ids.size, 1);
    const deltas = chunks.flatMap((chunk) =>
      (chunk['choices'] as { delta: Record<string, unknown> }[]).map((choice) => choice.delta),
    );
    assert.equal(deltas[0]?.['role'], 'assistant');
    assert.equal(deltas.filter((delta) => 'role' in delta).length, 1);
    const contentDeltas = deltas.filter((delta) => typeof delta['content'] === 'string' && delta['content'] !== '');
    assert.equal(contentDeltas.map((delta) => delta['content']).join(''), plain.choices[0]?.message['content']);
    const usageChunk = chunks.at(-1) as { choices: unknown[]; usage: Completion['usage'] };
    assert.deepEqual(usageChunk.choices, []);
    assert.equal(usageChunk.usage.completion_tokens, contentDeltas.length);
    assert.ok(chunks.slice(0, -1).every((chunk) => chunk['usage'] === null));
  });

  it('cuts the answer at max_completion_tokens with finish_reason length', async () => {
    const response = await postJson(chatUrl, {
      body: { model: 'gpt-4o', messages: hello, max_completion_tokens: 5 },
      headers: bearer,
    });
    const body = (await response.json()) as Completion;
    assert.equal(body.choices[0]?.finish_reason, 'length');
    assert.equal(body.usage.completion_tokens, 5);
  });

  it('calls the first tool with schema-valid arguments, streamed and not', async () => {
    const tools = [{ type: 'function', function: weatherTool }];
    const plain = (await (
      await postJson(chatUrl, { body: { model: 'gpt-4o', messages: hello, tools }, headers: bearer })
    ).json()) as Completion;
    const message = plain.choices[0]?.message as {
      content: unknown;
      tool_calls: { id: string; function: { name: string; arguments: string } }[];
    };
    assert.equal(plain.choices[0]?.finish_reason, 'tool_calls');
    assert.equal(message.content, null);
    assert.equal(message.tool_calls.length, 1);
    assert.match(message.tool_calls[0]?.id ?? '', /^call_[A-Za-z0-9]{24}$/);
    assert.ok(isValidWeatherArguments(JSON.parse(message.tool_calls[0]?.function.arguments ?? '')));

    const read = await readSse(
      await postJson(chatUrl, { body: { model: 'gpt-4o', messages: hello, tools, stream: true }, headers: bearer }),
    );
    const deltas = jsonPayloads(read).flatMap(
      (chunk) => chunk['choices'] as { delta: Record<string, unknown>; finish_reason: unknown }[],
    );
    const toolDeltas = deltas.flatMap(
      (choice) => (choice.delta['tool_calls'] as Record<string, unknown>[] | undefined) ?? [],
    );
    assert.equal(toolDeltas.filter((delta) => 'id' in delta).length, 1);
    const argumentsText = toolDeltas.map((delta) => (delta['function'] as { arguments: string }).arguments).join('');
    assert.equal(argumentsText, message.tool_calls[0]?.function.arguments);
    assert.equal(deltas.at(-1)?.finish_reason, 'tool_calls');
  });

  it('makes two parallel calls on [sim:parallel] and answers tool results in text', async () => {
    const tools = [
      { type: 'function', function: weatherTool },
      { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: {} } } },
    ];
    const messages = [{ role: 'user', content: 'Weather and time? [sim:parallel]' }];
    const first = (await (
      await postJson(chatUrl, { body: { model: 'gpt-4o', messages, tools }, headers: bearer })
    ).json()) as Completion;
    const calls = first.choices[0]?.message['tool_calls'] as { id: string; function: { name: string } }[];
    assert.deepEqual(
      calls.map((call) => call.function.name),
      ['get_weather', 'get_time'],
    );
    const followUp = [
      ...messages,
      first.choices[0]?.message,
      ...calls.map((call) => ({ role: 'tool', tool_call_id: call.id, content: 'sunny' })),
    ];
    const second = (await (
      await postJson(chatUrl, { body: { model: 'gpt-4o', messages: followUp, tools }, headers: bearer })
    ).json()) as Completion;
    assert.equal(second.choices[0]?.finish_reason, 'stop');
    assert.equal(typeof second.choices[0]?.message['content'], 'string');
  });

  it('rejects tool messages that answer no tool call, like OpenAI', async () => {
    const messages = [...hello, { role: 'tool', tool_call_id: 'call_x', content: 'sunny' }];
    const response = await postJson(chatUrl, { body: { model: 'gpt-4o', messages }, headers: bearer });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { error: Record<string, unknown> };
    assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type']);
    assert.equal(body.error['type'], 'invalid_request_error');
  });

  it('answers json_schema requests with JSON valid against the schema', async () => {
    const response_format = { type: 'json_schema', json_schema: { name: 'weather', schema: weatherTool.parameters } };
    const body = (await (
      await postJson(chatUrl, { body: { model: 'gpt-4o', messages: hello, response_format }, headers: bearer })
    ).json()) as Completion;
    assert.ok(isValidWeatherArguments(JSON.parse(String(body.choices[0]?.message['content']))));
  });

  it('counts reasoning tokens for reasoning models and refuses max_tokens there', async () => {
    const body = (await (
      await postJson(chatUrl, { body: { model: 'o3', messages: hello, reasoning_effort: 'high' }, headers: bearer })
    ).json()) as Completion;
    const reasoning = body.usage['completion_tokens_details']?.['reasoning_tokens'] ?? 0;
    assert.ok(reasoning > 0);
    assert.equal(
      body.usage.completion_tokens - reasoning,
      String(body.choices[0]?.message['content']).split(' ').length,
    );
    const rejected = await postJson(chatUrl, {
      body: { model: 'o3', messages: hello, max_tokens: 10 },
      headers: bearer,
    });
    assert.equal(rejected.status, 400);
    assert.equal(((await rejected.json()) as { error: { param: string } }).error.param, 'max_tokens');
  });

  it('answers refusals in the refusal field', async () => {
    const messages = [{ role: 'user', content: 'Something bad [sim:refusal]' }];
    const body = (await (
      await postJson(chatUrl, { body: { model: 'gpt-4o', messages }, headers: bearer })
    ).json()) as Completion;
    assert.equal(body.choices[0]?.message['content'], null);
    assert.equal(typeof body.choices[0]?.message['refusal'], 'string');
  });

  it('reports cached tokens when the same long prefix is sent again', async () => {
    const system = { role: 'system', content: 'Policy text. '.repeat(400) };
    const first = (await (
      await postJson(chatUrl, { body: { model: 'gpt-4.1', messages: [system, ...hello] }, headers: bearer })
    ).json()) as Completion;
    assert.equal(first.usage['prompt_tokens_details']?.['cached_tokens'], 0);
    const messages = [system, { role: 'user', content: 'A different question.' }];
    const second = (await (
      await postJson(chatUrl, { body: { model: 'gpt-4.1', messages }, headers: bearer })
    ).json()) as Completion;
    const cached = second.usage['prompt_tokens_details']?.['cached_tokens'] ?? 0;
    assert.ok(cached >= 1024 && cached % 128 === 0 && cached <= second.usage.prompt_tokens);
  });

  it('counts images as input tokens', async () => {
    const text = { role: 'user', content: [{ type: 'text', text: 'What is this?' }] };
    const withImage = {
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      ],
    };
    const plain = (await (
      await postJson(chatUrl, { body: { model: 'gpt-4o', messages: [text] }, headers: bearer })
    ).json()) as Completion;
    const image = (await (
      await postJson(chatUrl, { body: { model: 'gpt-4o', messages: [withImage] }, headers: bearer })
    ).json()) as Completion;
    assert.ok(image.usage.prompt_tokens > plain.usage.prompt_tokens + 80);
  });

  it('rejects missing and invalid keys, bad JSON and missing fields with OpenAI error bodies', async () => {
    const missingKey = await postJson(chatUrl, { body: { model: 'gpt-4o', messages: hello } });
    assert.equal(missingKey.status, 401);
    const invalidKey = await postJson(chatUrl, {
      body: { model: 'gpt-4o', messages: hello },
      headers: { authorization: 'Bearer invalid-key-123' },
    });
    assert.equal(invalidKey.status, 401);
    assert.equal(((await invalidKey.json()) as { error: { code: string } }).error.code, 'invalid_api_key');
    const badJson = await postJson(chatUrl, { body: '{"model":', headers: bearer });
    assert.equal(badJson.status, 400);
    const missing = await postJson(chatUrl, { body: { model: 'gpt-4o' }, headers: bearer });
    assert.equal(missing.status, 400);
    const error = ((await missing.json()) as { error: Record<string, unknown> }).error;
    assert.equal(error['param'], 'messages');
    assert.equal(error['code'], 'missing_required_parameter');
  });

  it('lists models', async () => {
    const response = await fetch(`${simulator.url}/openai/v1/models`, { headers: bearer });
    const body = (await response.json()) as { object: string; data: { id: string; object: string }[] };
    assert.equal(body.object, 'list');
    assert.ok(body.data.some((model) => model.id === 'gpt-4o' && model.object === 'model'));
  });
});
