import type { ChatChunk, ChunkDelta, FinishReason, ToolCallDelta, Usage } from '../openai-api/chat-completion.ts';
import { convertUsage } from './convert-usage.ts';
import { mapStopReason } from './map-stop-reason.ts';
import type { ContentBlock, ContentBlockDelta, StreamEvent } from './message-object.ts';
import { toToolUseId } from './tool-use-id.ts';

type OpenBlock = { kind: 'thinking' | 'text' } | { kind: 'tool_use'; toolCallIndex: number };

/** Turns the chat chunks of one answer into Anthropic stream events, as they pass (nothing is buffered). */
export type MessageStreamConverter = {
  /** `message_start`, before any chunk. */
  start: () => StreamEvent[];
  convertChunk: (chunk: ChatChunk) => StreamEvent[];
  /** Closes the open block, then `message_delta` (stop reason, final usage with the cost) and `message_stop`. */
  finish: () => StreamEvent[];
};

/**
 * Chat chunks → Anthropic events (docs/reference/anthropic.md §Stream): each run of reasoning, text or one tool call's arguments
 * becomes a content block (`thinking_delta`, `text_delta`, `input_json_delta`), opened when its first delta arrives
 * and closed when another kind of delta starts. `message_start` carries an estimate of the input tokens, as the
 * vendor's count arrives only with the last chunk; the exact, cumulative usage is in `message_delta`.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export function createMessageStreamConverter(input: {
  id: string;
  model: string;
  estimatedInputTokens: number;
}): MessageStreamConverter {
  let openBlock: OpenBlock | undefined;
  let blockIndex = -1;
  let finishReason: FinishReason | undefined;
  let isRefusal = false;
  let usage: Usage | undefined;

  const closeBlock = (): StreamEvent[] => {
    if (openBlock === undefined) return [];
    openBlock = undefined;
    return [{ type: 'content_block_stop', index: blockIndex }];
  };
  const openNewBlock = (block: OpenBlock, contentBlock: ContentBlock): StreamEvent[] => {
    const events = closeBlock();
    openBlock = block;
    blockIndex += 1;
    events.push({ type: 'content_block_start', index: blockIndex, content_block: contentBlock });
    return events;
  };
  const appendDelta = (kind: 'thinking' | 'text', delta: ContentBlockDelta): StreamEvent[] => {
    const events =
      openBlock?.kind === kind
        ? []
        : openNewBlock(
            { kind },
            kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' },
          );
    events.push({ type: 'content_block_delta', index: blockIndex, delta });
    return events;
  };
  const appendToolCall = (call: ToolCallDelta): StreamEvent[] => {
    const isSameCall = openBlock?.kind === 'tool_use' && openBlock.toolCallIndex === call.index;
    const events = isSameCall
      ? []
      : openNewBlock(
          { kind: 'tool_use', toolCallIndex: call.index },
          {
            type: 'tool_use',
            id: toToolUseId(call.id ?? `${input.id}_${call.index}`),
            name: call.function.name ?? '',
            input: {},
          },
        );
    const partialJson = call.function.arguments ?? '';
    if (partialJson !== '') {
      events.push({
        type: 'content_block_delta',
        index: blockIndex,
        delta: { type: 'input_json_delta', partial_json: partialJson },
      });
    }
    return events;
  };
  const convertDelta = (delta: ChunkDelta): StreamEvent[] => {
    const events: StreamEvent[] = [];
    if (delta.reasoning_content) {
      events.push(...appendDelta('thinking', { type: 'thinking_delta', thinking: delta.reasoning_content }));
    }
    if (delta.content) events.push(...appendDelta('text', { type: 'text_delta', text: delta.content }));
    if (delta.refusal) {
      isRefusal = true;
      events.push(...appendDelta('text', { type: 'text_delta', text: delta.refusal }));
    }
    for (const call of delta.tool_calls ?? []) events.push(...appendToolCall(call));
    return events;
  };

  return {
    start: () => [
      {
        type: 'message_start',
        message: {
          id: input.id,
          type: 'message',
          role: 'assistant',
          model: input.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: input.estimatedInputTokens,
            output_tokens: 0,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 0,
          },
        },
      },
    ],
    convertChunk: (chunk) => {
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices[0];
      if (choice === undefined) return [];
      if (choice.finish_reason !== null) finishReason = choice.finish_reason;
      return convertDelta(choice.delta);
    },
    finish: () => [
      ...closeBlock(),
      {
        type: 'message_delta',
        delta: { stop_reason: isRefusal ? 'refusal' : mapStopReason(finishReason ?? 'stop'), stop_sequence: null },
        usage: convertUsage(usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }),
      },
      { type: 'message_stop' },
    ],
  };
}
