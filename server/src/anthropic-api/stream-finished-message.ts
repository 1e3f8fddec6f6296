import type { ContentBlock, ContentBlockDelta, Message, StreamEvent } from './message-object.ts';

/**
 * A finished Message as Anthropic's stream events, in the order Anthropic sends them for the same content:
 * `message_start` (empty content), one start/delta/stop run per block (text as `text_delta` after its
 * `citations_delta`s, thinking as `thinking_delta`, tool input as one `input_json_delta`, a search result block
 * whole in its start event), then `message_delta` with the stop reason and usage, and `message_stop`.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export function streamFinishedMessage(message: Message): StreamEvent[] {
  const events: StreamEvent[] = [
    {
      type: 'message_start',
      message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 0 } },
    },
  ];
  message.content.forEach((block, index) => {
    const { start, deltas } = splitBlock(block);
    events.push({ type: 'content_block_start', index, content_block: start });
    for (const delta of deltas) events.push({ type: 'content_block_delta', index, delta });
    events.push({ type: 'content_block_stop', index });
  });
  events.push(
    {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: message.stop_sequence },
      usage: message.usage,
    },
    { type: 'message_stop' },
  );
  return events;
}

function splitBlock(block: ContentBlock): { start: ContentBlock; deltas: ContentBlockDelta[] } {
  switch (block.type) {
    case 'text': {
      const citations = block.citations ?? [];
      const textDelta: ContentBlockDelta[] = block.text === '' ? [] : [{ type: 'text_delta', text: block.text }];
      return {
        start: block.citations ? { type: 'text', text: '', citations: [] } : { type: 'text', text: '' },
        deltas: [...citations.map((citation) => ({ type: 'citations_delta' as const, citation })), ...textDelta],
      };
    }
    case 'thinking':
      return {
        start: { type: 'thinking', thinking: '', signature: '' },
        deltas: [{ type: 'thinking_delta', thinking: block.thinking }],
      };
    case 'tool_use':
      return {
        start: { ...block, input: {} },
        deltas: [{ type: 'input_json_delta', partial_json: JSON.stringify(block.input) }],
      };
    case 'server_tool_use':
      return {
        start: { ...block, input: {} },
        deltas: [{ type: 'input_json_delta', partial_json: JSON.stringify(block.input) }],
      };
    case 'web_search_tool_result':
      return { start: block, deltas: [] };
  }
}
