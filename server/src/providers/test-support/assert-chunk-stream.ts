import assert from 'node:assert/strict';
import type { ChatChunk, Usage } from '../../openai-api/chat-completion.ts';

const allowedDeltaKeys = new Set(['role', 'content', 'refusal', 'tool_calls', 'reasoning_content']);

/** What an OpenAI SDK accumulator would make of a chunk stream (per choice 0 unless asked). */
export type AccumulatedChoice = {
  content: string;
  reasoning: string;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  finishReason: string | null;
};

/**
 * Checks the SDK invariants of docs/reference/openai.md §Streaming on a converted stream: one id, created and model; `role` on
 * the first delta of each choice only; tool-call identity on the first delta of each index only, indices dense; a
 * last choice chunk with `delta: {}` and a finish reason; usage once, last, with `choices: []`; no vendor extras.
 */
export function assertChunkStream(chunks: readonly ChatChunk[], expected: { model: string; id: string }): void {
  const roleSeen = new Set<number>();
  const finished = new Set<number>();
  const toolIdentities = new Map<string, true>();
  chunks.forEach((chunk, position) => {
    assert.equal(chunk.id, expected.id);
    assert.equal(chunk.model, expected.model);
    assert.equal(chunk.created, chunks[0]?.created);
    assert.equal(chunk.object, 'chat.completion.chunk');
    assert.equal('error' in chunk, false);
    if (chunk.usage) {
      assert.equal(position, chunks.length - 1, 'usage comes on the last chunk');
      assert.deepEqual(chunk.choices, []);
    }
    for (const choice of chunk.choices) {
      assert.equal(finished.has(choice.index), false, 'nothing after a choice finished');
      for (const key of Object.keys(choice.delta)) assert.ok(allowedDeltaKeys.has(key), `unexpected delta key ${key}`);
      assert.equal(choice.delta.role !== undefined, !roleSeen.has(choice.index), 'role on the first delta only');
      roleSeen.add(choice.index);
      for (const call of choice.delta.tool_calls ?? []) checkToolCallDelta(toolIdentities, choice.index, call);
      if (choice.finish_reason !== null) {
        assert.deepEqual(choice.delta, {});
        finished.add(choice.index);
      }
    }
  });
  assert.deepEqual([...roleSeen].sort(), [...finished].sort(), 'every choice that started finished');
}

function checkToolCallDelta(
  identities: Map<string, true>,
  choiceIndex: number,
  call: NonNullable<ChatChunk['choices'][number]['delta']['tool_calls']>[number],
): void {
  const key = `${choiceIndex}:${call.index}`;
  assert.ok(Number.isInteger(call.index) && call.index >= 0);
  if (identities.has(key)) {
    assert.deepEqual(Object.keys(call).sort(), ['function', 'index']);
    assert.deepEqual(Object.keys(call.function), ['arguments']);
    return;
  }
  const earlier = [...identities.keys()].filter((known) => known.startsWith(`${choiceIndex}:`)).length;
  assert.equal(call.index, earlier, 'tool-call indices are dense');
  assert.ok(typeof call.id === 'string' && call.id !== '');
  assert.equal(call.type, 'function');
  assert.ok(typeof call.function.name === 'string' && call.function.name !== '');
  assert.equal(call.function.arguments, '', 'the first delta of a tool call has empty arguments');
  identities.set(key, true);
}

export function accumulateChoice(chunks: readonly ChatChunk[], choiceIndex = 0): AccumulatedChoice {
  const result: AccumulatedChoice = { content: '', reasoning: '', toolCalls: [], finishReason: null };
  for (const choice of chunks.flatMap((chunk) => chunk.choices).filter((entry) => entry.index === choiceIndex)) {
    result.content += choice.delta.content ?? '';
    result.reasoning += choice.delta.reasoning_content ?? '';
    for (const call of choice.delta.tool_calls ?? []) {
      const entry = (result.toolCalls[call.index] ??= {
        id: call.id ?? '',
        name: call.function.name ?? '',
        arguments: '',
      });
      entry.arguments += call.function.arguments ?? '';
    }
    result.finishReason = choice.finish_reason ?? result.finishReason;
  }
  return result;
}

export function findUsage(chunks: readonly ChatChunk[]): Usage | undefined {
  return chunks.find((chunk) => chunk.usage)?.usage ?? undefined;
}
