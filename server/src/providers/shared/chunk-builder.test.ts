import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createChunkBuilder } from './chunk-builder.ts';

const identity = { id: 'chatcmpl-1', created: 1, model: 'm' };

describe('createChunkBuilder', () => {
  it('opens an empty answer with a role chunk before the finish chunk', () => {
    const builder = createChunkBuilder(identity);
    const chunks = builder.finish(0, 'stop');
    assert.deepEqual(
      chunks.map((chunk) => chunk.choices[0]?.delta),
      [{ role: 'assistant', content: '' }, {}],
    );
  });

  it('numbers tool calls per choice and drops deltas after the finish', () => {
    const builder = createChunkBuilder(identity);
    assert.equal(builder.startToolCall(0, { id: 'a', name: 'f', arguments: '' }).toolIndex, 0);
    assert.equal(builder.startToolCall(1, { id: 'b', name: 'f', arguments: '' }).toolIndex, 0);
    assert.equal(builder.startToolCall(0, { id: 'c', name: 'g', arguments: '{}' }).toolIndex, 1);
    builder.finish(0, 'tool_calls');
    assert.deepEqual(builder.content(0, 'late'), []);
    assert.deepEqual(builder.unfinishedChoices(), [1]);
  });

  it('puts usage on a chunk with no choices', () => {
    const [chunk] = createChunkBuilder(identity).usage({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 });
    assert.deepEqual(chunk?.choices, []);
    assert.equal(chunk?.usage?.total_tokens, 3);
  });
});
