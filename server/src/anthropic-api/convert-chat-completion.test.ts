import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ChatCompletion } from '../openai-api/chat-completion.ts';
import { convertChatCompletion } from './convert-chat-completion.ts';

const identity = { id: 'msg_1', model: 'claude-x' };

describe('convertChatCompletion', () => {
  test('orders thinking, text and tool_use blocks and maps usage', () => {
    const completion: ChatCompletion = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'upstream-snapshot',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          logprobs: null,
          message: {
            role: 'assistant',
            content: 'Checking.',
            refusal: null,
            reasoning_content: 'Think.',
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
          },
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, cost: 0.5 },
    };
    assert.deepEqual(convertChatCompletion(completion, identity), {
      ...identity,
      type: 'message',
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Think.', signature: '' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_call_1', name: 'f', input: { a: 1 } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: {
        input_tokens: 10,
        output_tokens: 5,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        cost: 0.5,
      },
    });
  });
});
