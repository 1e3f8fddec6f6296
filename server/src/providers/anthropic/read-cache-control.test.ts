import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../errors/invalid-request-error.ts';
import type { ChatRequest } from '../../openai-api/chat-request.ts';
import { convertRequest } from './convert-request.ts';

const target = { baseUrl: 'https://api.anthropic.com', credential: 'sk-ant-test', upstreamModel: 'claude-sonnet-4-5' };
const convert = (request: Partial<ChatRequest> & Record<string, unknown>) =>
  convertRequest({
    request: { model: 'claude', messages: [{ role: 'user', content: 'Hi' }], ...request },
    target,
    isStreaming: false,
  });
const ephemeral = { type: 'ephemeral' } as const;

describe('Anthropic prompt-cache breakpoints (cache_control) from chat requests', () => {
  it('keeps cache_control on system parts, user text and image parts, assistant text, tool results and tools', () => {
    const body = convert({
      cache_control: ephemeral,
      messages: [
        {
          role: 'system',
          content: [
            { type: 'text', text: 'Long instructions.', cache_control: ephemeral },
            { type: 'text', text: 'Today is Monday.' },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Read this.', cache_control: { type: 'ephemeral', ttl: '5m' } },
            { type: 'image_url', image_url: { url: 'https://example.org/a.png' }, cache_control: ephemeral },
          ],
        },
        {
          role: 'assistant',
          content: [{ type: 'text', text: 'Checking.', cache_control: ephemeral }],
          tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'look', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: [{ type: 'text', text: 'found', cache_control: ephemeral }] },
      ],
      tools: [{ type: 'function', function: { name: 'look' }, cache_control: ephemeral }],
    });
    assert.deepEqual(body.cache_control, ephemeral);
    assert.deepEqual(body.system, [
      { type: 'text', text: 'Long instructions.', cache_control: ephemeral },
      { type: 'text', text: 'Today is Monday.' },
    ]);
    const [user, assistant, toolTurn] = body.messages;
    assert.deepEqual(user?.content[0], {
      type: 'text',
      text: 'Read this.',
      cache_control: { type: 'ephemeral', ttl: '5m' },
    });
    assert.deepEqual(user?.content[1], {
      type: 'image',
      source: { type: 'url', url: 'https://example.org/a.png' },
      cache_control: ephemeral,
    });
    assert.deepEqual(assistant?.content[0], { type: 'text', text: 'Checking.', cache_control: ephemeral });
    assert.deepEqual(toolTurn?.content[0], {
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: 'found',
      cache_control: ephemeral,
    });
    assert.deepEqual(body.tools?.[0]?.cache_control, ephemeral);
  });

  it('joins system parts into one block when none carries a breakpoint, as before', () => {
    const body = convert({
      messages: [
        {
          role: 'system',
          content: [
            { type: 'text', text: 'A' },
            { type: 'text', text: 'B' },
          ],
        },
        { role: 'user', content: 'Hi' },
      ],
    });
    assert.deepEqual(body.system, [{ type: 'text', text: 'A\n\nB' }]);
    assert.equal('cache_control' in (body.messages[0]?.content[0] ?? {}), false);
  });

  it('refuses a malformed cache_control, naming it', () => {
    const refusal = (param: string) => (error: unknown) => {
      assert.ok(error instanceof InvalidRequestError, String(error));
      assert.equal(error.param, param);
      return true;
    };
    assert.throws(
      () => convert({ messages: [{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: 'yes' }] }] }),
      refusal('messages[0].content[0].cache_control'),
    );
    assert.throws(
      () =>
        convert({
          tools: [{ type: 'function', function: { name: 'f' }, cache_control: { type: 'ephemeral', ttl: '2d' } }],
        }),
      refusal('tools[0].cache_control'),
    );
    assert.throws(() => convert({ cache_control: { type: 'persistent' } }), refusal('cache_control'));
  });

  it('refuses one-hour cache writes, which cost 2× the input rate and are not in the price list', () => {
    assert.throws(
      () =>
        convert({
          messages: [
            { role: 'user', content: [{ type: 'text', text: 'x', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
          ],
        }),
      (error: unknown) =>
        error instanceof InvalidRequestError && error.param === 'messages[0].content[0].cache_control',
    );
  });
});
