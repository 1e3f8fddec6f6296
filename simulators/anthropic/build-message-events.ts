import { dataEvent, type SseEvent } from '../shared/send-response.ts';
import { formatAnthropicUsage, mapStopReason } from './anthropic-format.ts';
import type { MessageContext } from './build-message.ts';
import type { MessageBlock } from './plan-message-blocks.ts';

/**
 * The Messages stream (docs/reference/anthropic.md §Stream): `message_start` (input usage, provisional output 1), a `ping`, then per
 * block `content_block_start` → deltas → `content_block_stop`, then `message_delta` with the stop reason and
 * cumulative usage, then `message_stop`.
 */
export function buildMessageEvents(context: MessageContext): SseEvent[] {
  const event = (payload: Record<string, unknown>) => dataEvent(payload, String(payload['type']));
  const usage = formatAnthropicUsage(context.plan, context.cacheTtl);
  const events: SseEvent[] = [
    event({
      type: 'message_start',
      message: {
        id: context.messageId,
        type: 'message',
        role: 'assistant',
        model: context.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1, server_tool_use: undefined, output_tokens_details: undefined },
      },
    }),
    event({ type: 'ping' }),
  ];
  context.blocks.forEach((block, index) => {
    events.push(event({ type: 'content_block_start', index, content_block: renderStartBlock(block) }));
    for (const delta of renderDeltas(block)) events.push(event({ type: 'content_block_delta', index, delta }));
    events.push(event({ type: 'content_block_stop', index }));
  });
  events.push(
    event({
      type: 'message_delta',
      delta: {
        stop_reason: mapStopReason(context.plan.finishReason),
        stop_sequence: context.plan.stopSequence ?? null,
      },
      usage: {
        input_tokens: usage['input_tokens'],
        cache_creation_input_tokens: usage['cache_creation_input_tokens'],
        cache_read_input_tokens: usage['cache_read_input_tokens'],
        output_tokens: usage['output_tokens'],
        ...(usage['server_tool_use'] === undefined ? {} : { server_tool_use: usage['server_tool_use'] }),
      },
    }),
    event({ type: 'message_stop' }),
  );
  return events;
}

function renderStartBlock(block: MessageBlock): Record<string, unknown> {
  switch (block.type) {
    case 'thinking':
      return { type: 'thinking', thinking: '', signature: '' };
    case 'server_tool_use':
      return { type: 'server_tool_use', id: block.id, name: 'web_search', input: {} };
    case 'web_search_tool_result':
      return { type: 'web_search_tool_result', tool_use_id: block.toolUseId, content: block.results };
    case 'text':
      return block.citations ? { citations: [], type: 'text', text: '' } : { type: 'text', text: '' };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: {} };
    default:
      return assertNever(block);
  }
}

function renderDeltas(block: MessageBlock): Record<string, unknown>[] {
  switch (block.type) {
    case 'thinking':
      return [
        ...block.tokens.map((token) => ({ type: 'thinking_delta', thinking: token })),
        { type: 'signature_delta', signature: block.signature },
      ];
    case 'server_tool_use':
      return [{ type: 'input_json_delta', partial_json: JSON.stringify({ query: block.query }) }];
    case 'web_search_tool_result':
      return [];
    case 'text':
      return [
        ...(block.citations ?? []).map((citation) => ({ type: 'citations_delta', citation })),
        ...block.tokens.map((token) => ({ type: 'text_delta', text: token })),
      ];
    case 'tool_use':
      // The first fragment is often empty (§5.4); it carries no token.
      return [
        { type: 'input_json_delta', partial_json: '' },
        ...block.fragments.map((fragment) => ({ type: 'input_json_delta', partial_json: fragment })),
      ];
    default:
      return assertNever(block);
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected block ${JSON.stringify(value)}`);
}
