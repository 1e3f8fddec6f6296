import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ChatChunk, ChunkDelta, FinishReason } from '../openai-api/chat-completion.ts';
import { createMessageStreamConverter } from './create-message-stream-converter.ts';

const identity = { id: 'msg_1', model: 'claude-x' };
const chunk = (delta: ChunkDelta, finishReason: FinishReason | null = null): ChatChunk => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finishReason }],
});
const usageChunk: ChatChunk = {
  ...chunk({}),
  choices: [],
  usage: {
    prompt_tokens: 100,
    completion_tokens: 7,
    total_tokens: 107,
    prompt_tokens_details: { cached_tokens: 40 },
    cost: 0.0012,
  },
};

describe('createMessageStreamConverter', () => {
  test('reasoning, text and tool calls become blocks, each started, delta-ed and stopped, then the stop reason and usage', () => {
    const converter = createMessageStreamConverter({ ...identity, estimatedInputTokens: 90 });
    const events = [
      ...converter.start(),
      ...[
        chunk({ role: 'assistant', content: '' }),
        chunk({ reasoning_content: 'Hmm.' }),
        chunk({ content: 'Let me ' }),
        chunk({ content: 'check.' }),
        chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"x":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }),
        chunk({
          tool_calls: [{ index: 1, id: 'toolu_b', type: 'function', function: { name: 'g', arguments: '{}' } }],
        }),
        chunk({}, 'tool_calls'),
        usageChunk,
      ].flatMap((value) => converter.convertChunk(value)),
      ...converter.finish(),
    ];
    assert.deepEqual(events, [
      {
        type: 'message_start',
        message: {
          ...identity,
          type: 'message',
          role: 'assistant',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 90, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
      },
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm.' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Let me ' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'check.' } },
      { type: 'content_block_stop', index: 1 },
      {
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'tool_use', id: 'toolu_call_a', name: 'f', input: {} },
      },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"x":' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '1}' } },
      { type: 'content_block_stop', index: 2 },
      {
        type: 'content_block_start',
        index: 3,
        content_block: { type: 'tool_use', id: 'toolu_b', name: 'g', input: {} },
      },
      { type: 'content_block_delta', index: 3, delta: { type: 'input_json_delta', partial_json: '{}' } },
      { type: 'content_block_stop', index: 3 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: {
          input_tokens: 60,
          output_tokens: 7,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 40,
          cost: 0.0012,
        },
      },
      { type: 'message_stop' },
    ]);
  });

  test('a refusal streams as text and ends with stop_reason refusal; length ends with max_tokens', () => {
    const refusing = createMessageStreamConverter({ ...identity, estimatedInputTokens: 1 });
    refusing.convertChunk(chunk({ refusal: 'No.' }));
    refusing.convertChunk(chunk({}, 'stop'));
    assert.deepEqual(refusing.finish()[1], {
      type: 'message_delta',
      delta: { stop_reason: 'refusal', stop_sequence: null },
      usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
    const cut = createMessageStreamConverter({ ...identity, estimatedInputTokens: 1 });
    cut.convertChunk(chunk({ content: 'a' }, 'length'));
    const delta = cut.finish().find((event) => event.type === 'message_delta');
    assert.equal(delta?.type === 'message_delta' ? delta.delta.stop_reason : undefined, 'max_tokens');
  });
});
