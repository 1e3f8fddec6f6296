import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatChunk } from '../openai-api/chat-completion.ts';
import { consumeModelRound } from './consume-model-round.ts';
import { ResponseBuilder } from './response-builder.ts';
import type { SequencedEvent } from './response-stream-event.ts';

const settings = {
  instructions: null,
  tools: [],
  tool_choice: 'auto',
  parallel_tool_calls: true,
  temperature: null,
  top_p: null,
  max_output_tokens: null,
  metadata: {},
  reasoning: null,
  text: { format: { type: 'text' } },
};

function textChunk(content: string): ChatChunk {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  };
}

describe('consumeModelRound', () => {
  it('reads no further chunk while the client buffer is full, and goes on once it has drained', async () => {
    const events: SequencedEvent[] = [];
    let nextId = 0;
    const builder = new ResponseBuilder({
      identity: { id: 'resp_1', createdAtUnixSeconds: 0, model: 'm', settings },
      newId: (prefix) => `${prefix}${(nextId += 1)}`,
      emit: (event) => events.push(event),
    });
    let pulls = 0;
    const chunks: AsyncIterator<ChatChunk> = {
      next: async () => {
        pulls += 1;
        return pulls <= 2 ? { done: false, value: textChunk(` word${pulls}`) } : { done: true, value: undefined };
      },
    };
    let releaseDrain: () => void = () => undefined;
    let isFull = true;
    const drained = new Promise<void>((resolve) => (releaseDrain = resolve));
    const round = consumeModelRound({
      answer: { kind: 'stream', firstChunk: textChunk('First'), chunks },
      builder,
      searchFunctionName: undefined,
      isSourcesIncluded: false,
      drain: () => (isFull ? drained : undefined),
      signal: new AbortController().signal,
      nowMs: () => 0,
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(pulls, 0, 'the upstream is not read while the client buffer is full');
    assert.ok(
      events.some((event) => event.type === 'response.output_text.delta'),
      'the first chunk went out',
    );
    isFull = false;
    releaseDrain();
    const outcome = await round;
    assert.equal(pulls, 3);
    assert.equal(outcome.assistantText, 'First word1 word2');
  });
});
