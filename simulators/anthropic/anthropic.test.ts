import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSimulator, type RunningSimulator } from '../start-simulator.ts';
import {
  anthropicHeaders,
  asShape,
  isValidWeatherArguments,
  jsonPayloads,
  postJson,
  readSse,
  weatherTool,
} from '../test-support/read-sse.ts';

let simulator: RunningSimulator;
let messagesUrl: string;
before(async () => {
  simulator = await startSimulator();
  messagesUrl = `${simulator.url}/anthropic/v1/messages`;
});
after(() => simulator.close());

const hello = [{ role: 'user', content: 'Describe a harbor.' }];
const tools = [{ name: weatherTool.name, description: weatherTool.description, input_schema: weatherTool.parameters }];
type Message = {
  model: string;
  content: (Record<string, unknown> & { type: string })[];
  stop_reason: string;
  stop_sequence: string | null;
  usage: Record<string, number>;
};
type Event = Record<string, unknown> & { type: string; index?: number; delta?: Record<string, unknown> };

function post(body: Record<string, unknown>, headers: Record<string, string> = anthropicHeaders): Promise<Response> {
  return postJson(messagesUrl, { body: { model: 'claude-sonnet-4-5', max_tokens: 1024, ...body }, headers });
}

describe('Anthropic Messages simulator', () => {
  it('answers text with a dated model, usage and a request-id header', async () => {
    const response = await post({ messages: hello });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('request-id') ?? '', /^req_/);
    const body = (await response.json()) as Message;
    assert.equal(body.model, 'claude-sonnet-4-5-20250929');
    assert.equal(body.stop_reason, 'end_turn');
    assert.equal(body.content[0]?.type, 'text');
    assert.equal(body.usage['output_tokens'], String(body.content[0]?.['text']).split(' ').length);
    for (const key of ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'])
      assert.equal(typeof body.usage[key], 'number');
  });

  it('streams the full event sequence with usage equal to the deltas', async () => {
    const read = await readSse(await post({ messages: hello, stream: true }));
    const events = jsonPayloads(read) as Event[];
    events.forEach((event, index) => assert.equal(read.events[index]?.event, event.type));
    const types = events.map((event) => event.type);
    assert.deepEqual(types.slice(0, 3), ['message_start', 'ping', 'content_block_start']);
    assert.deepEqual(types.slice(-3), ['content_block_stop', 'message_delta', 'message_stop']);
    const textDeltas = events.filter((event) => event.delta?.['type'] === 'text_delta');
    const messageDelta = asShape<{ delta: { stop_reason: string }; usage: { output_tokens: number } }>(
      events.find((event) => event.type === 'message_delta'),
    );
    assert.equal(messageDelta.delta.stop_reason, 'end_turn');
    assert.equal(messageDelta.usage.output_tokens, textDeltas.length);
  });

  it('streams tool use and thinking blocks with their deltas', async () => {
    const read = await readSse(
      await post({
        messages: hello,
        tools,
        stream: true,
        max_tokens: 4000,
        thinking: { type: 'enabled', budget_tokens: 2048 },
      }),
    );
    const events = jsonPayloads(read) as Event[];
    const starts = events
      .filter((event) => event.type === 'content_block_start')
      .map((event) => (event['content_block'] as { type: string }).type);
    assert.deepEqual(starts, ['thinking', 'text', 'tool_use']);
    const deltaTypes = new Set(events.flatMap((event) => (event.delta?.['type'] ? [String(event.delta['type'])] : [])));
    for (const type of ['thinking_delta', 'signature_delta', 'text_delta', 'input_json_delta'])
      assert.ok(deltaTypes.has(type), type);
    const toolIndex = starts.indexOf('tool_use');
    const json = events
      .filter((event) => event.index === toolIndex && event.delta?.['type'] === 'input_json_delta')
      .map((event) => String(event.delta?.['partial_json']))
      .join('');
    assert.ok(isValidWeatherArguments(JSON.parse(json)));
    const counted = events.filter((event) =>
      ['thinking_delta', 'text_delta'].includes(String(event.delta?.['type'])),
    ).length;
    const fragments = events.filter(
      (event) => event.delta?.['type'] === 'input_json_delta' && event.delta['partial_json'] !== '',
    ).length;
    const messageDelta = asShape<{ delta: { stop_reason: string }; usage: { output_tokens: number } }>(
      events.find((event) => event.type === 'message_delta'),
    );
    assert.equal(messageDelta.delta.stop_reason, 'tool_use');
    assert.equal(messageDelta.usage.output_tokens, counted + fragments);
  });

  it('answers a forced tool without preface and then a text answer to its result', async () => {
    const first = (await (
      await post({ messages: hello, tools, tool_choice: { type: 'tool', name: 'get_weather' } })
    ).json()) as Message;
    assert.equal(first.stop_reason, 'tool_use');
    assert.deepEqual(
      first.content.map((block) => block.type),
      ['tool_use'],
    );
    const toolUse = asShape<{ id: string; input: unknown }>(first.content[0]);
    assert.match(toolUse.id, /^toolu_01/);
    assert.ok(isValidWeatherArguments(toolUse.input));
    const messages = [
      ...hello,
      { role: 'assistant', content: first.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '21C' }] },
    ];
    const second = (await (await post({ messages, tools })).json()) as Message;
    assert.equal(second.stop_reason, 'end_turn');
  });

  it('rejects a tool_use without its tool_result in the next turn', async () => {
    const messages = [
      ...hello,
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01abc', name: 'get_weather', input: {} }] },
      { role: 'user', content: 'and?' },
    ];
    const response = await post({ messages, tools });
    assert.equal(response.status, 400);
    const body = (await response.json()) as {
      type: string;
      error: { type: string; message: string };
      request_id: string;
    };
    assert.equal(body.type, 'error');
    assert.equal(body.error.type, 'invalid_request_error');
    assert.match(body.error.message, /toolu_01abc/);
    assert.match(body.request_id, /^req_/);
  });

  it('requires x-api-key, anthropic-version and max_tokens, and temperature at most 1', async () => {
    assert.equal((await post({ messages: hello }, { 'anthropic-version': '2023-06-01' })).status, 401);
    const invalid = await post({ messages: hello }, { 'x-api-key': 'invalid-key', 'anthropic-version': '2023-06-01' });
    assert.equal(invalid.status, 401);
    assert.equal(((await invalid.json()) as { error: { type: string } }).error.type, 'authentication_error');
    assert.equal((await post({ messages: hello }, { 'x-api-key': 'k' })).status, 400);
    const noMaxTokens = await postJson(messagesUrl, {
      body: { model: 'claude-sonnet-4-5', messages: hello },
      headers: anthropicHeaders,
    });
    assert.equal(noMaxTokens.status, 400);
    assert.match(((await noMaxTokens.json()) as { error: { message: string } }).error.message, /max_tokens/);
    const hot = await post({ messages: hello, temperature: 1.5 });
    assert.equal(hot.status, 400);
    assert.equal(((await hot.json()) as { error: { type: string } }).error.type, 'invalid_request_error');
  });

  it('stops at max_tokens and at stop sequences', async () => {
    const cut = (await (await post({ messages: hello, max_tokens: 3 })).json()) as Message;
    assert.equal(cut.stop_reason, 'max_tokens');
    assert.equal(cut.usage['output_tokens'], 3);
    const full = (await (await post({ messages: hello })).json()) as Message;
    const words = String(full.content[0]?.['text']).split(' ');
    const stop = ` ${words[5]}`;
    const stopped = (await (await post({ messages: hello, stop_sequences: [stop] })).json()) as Message;
    assert.equal(stopped.stop_reason, 'stop_sequence');
    assert.equal(stopped.stop_sequence, stop);
    assert.ok(!String(stopped.content[0]?.['text']).includes(stop));
  });

  it('writes then reads the prompt cache at cache_control breakpoints', async () => {
    const system = [{ type: 'text', text: 'Long instructions. '.repeat(300), cache_control: { type: 'ephemeral' } }];
    const first = (await (await post({ system, messages: hello })).json()) as Message;
    assert.ok((first.usage['cache_creation_input_tokens'] ?? 0) >= 1024);
    assert.equal(first.usage['cache_read_input_tokens'], 0);
    const second = (await (
      await post({ system, messages: [{ role: 'user', content: 'Other question' }] })
    ).json()) as Message;
    assert.equal(second.usage['cache_read_input_tokens'], first.usage['cache_creation_input_tokens']);
    assert.equal(second.usage['cache_creation_input_tokens'], 0);
  });

  it('sends event: error mid-stream', async () => {
    const read = await readSse(
      await post({ messages: [{ role: 'user', content: 'Hi [sim:mid-stream-error]' }], stream: true }),
    );
    assert.equal(read.events.at(-1)?.event, 'error');
    const last = jsonPayloads(read).at(-1) as { error: { type: string } };
    assert.equal(last.error.type, 'overloaded_error');
  });

  it('answers 529 overloaded with retry-after by directive', async () => {
    const response = await post({ messages: [{ role: 'user', content: 'Hi [sim:status=529 retry-after=3]' }] });
    assert.equal(response.status, 529);
    assert.equal(response.headers.get('retry-after'), '3');
    assert.equal(((await response.json()) as { error: { type: string } }).error.type, 'overloaded_error');
  });
});
