import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { parseWireRequest } from '../openai-api/parse-request.ts';
import { convertMessagesRequest } from './convert-messages-request.ts';
import { messagesRequestSchema } from './messages-request.ts';

const convert = (body: Record<string, unknown>) =>
  convertMessagesRequest(
    parseWireRequest(messagesRequestSchema, {
      model: 'm',
      max_tokens: 4096,
      messages: [{ role: 'user', content: 'Hi' }],
      ...body,
    }),
  );

const refusal = (param: string) => (error: unknown) => error instanceof InvalidRequestError && error.param === param;

describe('convertMessagesRequest', () => {
  test('maps the top-level fields to their chat equivalents', () => {
    const chat = convert({
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      temperature: 0.3,
      top_p: 0.9,
      stop_sequences: ['END'],
      metadata: { user_id: 'u-1' },
      stream: true,
      output_config: { format: { type: 'json_schema', schema: { type: 'object' } } },
    });
    assert.deepEqual(chat, {
      model: 'm',
      max_tokens: 4096,
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }] },
        { role: 'user', content: 'Hi' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.3,
      top_p: 0.9,
      stop: ['END'],
      user: 'u-1',
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'output', schema: { type: 'object' }, strict: true },
      },
    });
  });

  test('carries prompt-cache breakpoints (cache_control) onto the chat parts, tool results and tools', () => {
    const ephemeral = { type: 'ephemeral' };
    const chat = convert({
      cache_control: ephemeral,
      tools: [{ name: 'look', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral', ttl: '1h' } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look.', cache_control: ephemeral },
            { type: 'image', source: { type: 'url', url: 'https://example.org/a.png' }, cache_control: ephemeral },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'look', input: {} }] },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'found', cache_control: ephemeral }],
        },
      ],
    });
    assert.deepEqual(chat.cache_control, ephemeral);
    assert.deepEqual(chat.tools?.[0]?.cache_control, { type: 'ephemeral', ttl: '1h' });
    assert.deepEqual(chat.messages[0], {
      role: 'user',
      content: [
        { type: 'text', text: 'Look.', cache_control: ephemeral },
        { type: 'image_url', image_url: { url: 'https://example.org/a.png' }, cache_control: ephemeral },
      ],
    });
    assert.deepEqual(chat.messages[2], {
      role: 'tool',
      tool_call_id: 'toolu_1',
      content: [{ type: 'text', text: 'found', cache_control: ephemeral }],
    });
  });

  test('turns tool_result blocks into tool messages placed before the rest of the user turn', () => {
    const chat = convert({
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Use the tool.', signature: 'sig' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Here:' },
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '21 °C' }] },
            {
              type: 'image',
              source: { type: 'base64', media_type: 'image/png', data: 'AAAA' },
            },
          ],
        },
      ],
    });
    assert.deepEqual(chat.messages.slice(1), [
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
        reasoning_content: 'Use the tool.',
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: '21 °C' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Here:' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        ],
      },
    ]);
  });

  test('refuses a tool_result without its tool_use, and a tool_use left unanswered, naming the Anthropic field', () => {
    const toolTurn = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] };
    const result = (id: string) => ({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content: 'r' }],
    });
    assert.throws(
      () => convert({ messages: [{ role: 'user', content: 'x' }, toolTurn, result('toolu_2')] }),
      refusal('messages[2].content[0].tool_use_id'),
    );
    assert.throws(
      () => convert({ messages: [{ role: 'user', content: 'x' }, toolTurn, { role: 'user', content: 'y' }] }),
      refusal('messages[2].content'),
    );
    assert.throws(() => convert({ messages: [result('toolu_1')] }), refusal('messages[0].content[0].tool_use_id'));
    assert.equal(convert({ messages: [{ role: 'user', content: 'x' }, toolTurn] }).messages.length, 2);
  });

  test('maps tools and every tool_choice', () => {
    const tools = [{ name: 'f', description: 'd', input_schema: { type: 'object' } }];
    const chat = convert({ tools, tool_choice: { type: 'any', disable_parallel_tool_use: true } });
    assert.deepEqual(chat.tools, [
      { type: 'function', function: { name: 'f', description: 'd', parameters: { type: 'object' } } },
    ]);
    assert.equal(chat.tool_choice, 'required');
    assert.equal(chat.parallel_tool_calls, false);
    assert.equal(convert({ tools, tool_choice: { type: 'auto' } }).tool_choice, 'auto');
    assert.equal(convert({ tools, tool_choice: { type: 'none' } }).tool_choice, 'none');
    assert.deepEqual(convert({ tools, tool_choice: { type: 'tool', name: 'f' } }).tool_choice, {
      type: 'function',
      function: { name: 'f' },
    });
  });

  test('maps thinking to a reasoning effort', () => {
    const budget = (budget_tokens: number) =>
      convert({ max_tokens: 64_000, thinking: { type: 'enabled', budget_tokens } }).reasoning_effort;
    assert.equal(budget(1024), 'low');
    assert.equal(budget(2048), 'low');
    assert.equal(budget(2049), 'medium');
    assert.equal(budget(8192), 'medium');
    assert.equal(budget(8193), 'high');
    assert.equal(budget(32_000), 'high');
    assert.equal(convert({ thinking: { type: 'adaptive' } }).reasoning_effort, 'high');
    assert.equal(convert({ thinking: { type: 'adaptive' }, output_config: { effort: 'low' } }).reasoning_effort, 'low');
    assert.equal(convert({ output_config: { effort: 'max' } }).reasoning_effort, 'max');
    assert.equal(convert({ thinking: { type: 'disabled' } }).reasoning_effort, undefined);
  });

  test('refuses what it cannot carry, naming the field', () => {
    assert.throws(() => convert({ top_k: 10 }), refusal('top_k'));
    assert.throws(
      () => convert({ thinking: { type: 'enabled', budget_tokens: 4096 } }),
      refusal('thinking.budget_tokens'),
    );
    assert.throws(
      () => convert({ thinking: { type: 'disabled' }, output_config: { effort: 'low' } }),
      refusal('output_config.effort'),
    );
    assert.throws(
      () => convert({ tools: [{ type: 'code_execution_20250825', name: 'code_execution' }] }),
      refusal('tools[0].type'),
    );
    // The gateway runs web search itself (responses/read-messages-web-search.ts): the model never sees the server tool.
    assert.equal(convert({ tools: [{ type: 'web_search_20250305', name: 'web_search' }] }).tools, undefined);
    assert.throws(() => convert({ tools: [{ name: 'f' }] }), refusal('tools[0].input_schema'));
    assert.throws(
      () =>
        convert({
          messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'text', data: 'x' } }] }],
        }),
      refusal('messages[0].content[0].type'),
    );
    assert.throws(
      () =>
        convert({
          messages: [
            { role: 'user', content: 'x' },
            { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] },
            {
              role: 'user',
              content: [
                {
                  type: 'tool_result',
                  tool_use_id: 't',
                  content: [{ type: 'image', source: { type: 'url', url: 'https://example.org/a.png' } }],
                },
              ],
            },
          ],
        }),
      refusal('messages[2].content[0].content[0].type'),
    );
    assert.throws(
      () => convert({ messages: [{ role: 'user', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] }] }),
      refusal('messages[0].content[0].type'),
    );
  });

  test('the schema requires max_tokens and checks Anthropic ranges', () => {
    const parse = (body: Record<string, unknown>) => () => parseWireRequest(messagesRequestSchema, body);
    const messages = [{ role: 'user', content: 'x' }];
    assert.throws(parse({ model: 'm', messages }), refusal('max_tokens'));
    assert.throws(parse({ model: 'm', max_tokens: 10, messages, temperature: 1.2 }), refusal('temperature'));
    assert.throws(parse({ model: 'm', max_tokens: 10, messages: [] }), refusal('messages'));
    const blocks = (content: unknown) => parse({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content }] });
    assert.throws(blocks([{ type: 'text', text: 'a' }, { type: 'text' }]), refusal('messages[0].content[1].text'));
    assert.throws(blocks([{ type: 'video' }]), refusal('messages[0].content[0].type'));
    assert.throws(blocks(undefined), refusal('messages[0].content'));
    assert.throws(
      parse({ model: 'm', max_tokens: 10, messages, stop_sequences: ['a', 'b', 'c', 'd', 'e'] }),
      refusal('stop_sequences'),
    );
    assert.throws(
      parse({ model: 'm', max_tokens: 10, messages: [{ role: 'tool', content: 'x' }] }),
      refusal('messages[0].role'),
    );
  });

  test('issue #18: system turns inside messages become system messages where they stand', () => {
    const chat = convert({
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello.' },
        { role: 'system', content: [{ type: 'text', text: 'Answer in French.' }] },
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'w', input: {} }] },
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'Sunny' }] },
      ],
    });
    assert.deepEqual(
      chat.messages.map((message) => message.role),
      ['user', 'assistant', 'system', 'user', 'assistant', 'tool', 'system'],
      'a system turn between a tool call and its result moves after the result',
    );
    assert.deepEqual(chat.messages[2], { role: 'system', content: [{ type: 'text', text: 'Answer in French.' }] });
    assert.deepEqual(chat.messages[6], { role: 'system', content: 'Be brief.' });
    assert.throws(
      () =>
        convert({
          messages: [
            { role: 'system', content: [{ type: 'image', source: { type: 'url', url: 'https://a.example/x.png' } }] },
            { role: 'user', content: 'Hi' },
          ],
        }),
      refusal('messages[0].content[0].type'),
    );
    assert.throws(() => convert({ messages: [{ role: 'system', content: 'Only this.' }] }), refusal('messages'));
  });

  test('issue #18: output_format is honoured like output_config.format; both must agree', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const chat = convert({ output_format: { type: 'json_schema', schema } });
    assert.deepEqual(chat.response_format, {
      type: 'json_schema',
      json_schema: { name: 'output', schema, strict: true },
    });
    assert.throws(
      () =>
        convert({
          output_format: { type: 'json_schema', schema },
          output_config: { format: { type: 'json_schema', schema: { type: 'object' } } },
        }),
      refusal('output_format'),
    );
  });

  test('issue #18: a server-side thread is refused, the gateway being stateless', () => {
    assert.throws(
      () => convert({ thread: { type: 'create' } }),
      (error: unknown) => {
        assert.ok(error instanceof InvalidRequestError);
        assert.equal(error.param, 'thread');
        assert.match(error.message, /stateless/);
        return true;
      },
    );
  });

  test('issue #18: beta fields that would change the answer are refused by name; an empty one is not', () => {
    assert.throws(
      () => convert({ mcp_servers: [{ type: 'url', url: 'https://mcp.example.com', name: 'x' }] }),
      refusal('mcp_servers'),
    );
    assert.throws(() => convert({ container: 'container_1' }), refusal('container'));
    assert.equal(convert({ mcp_servers: [], context_management: { edits: [] } }).model, 'm');
  });
});
