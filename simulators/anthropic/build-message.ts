import type { AnswerPlan } from '../shared/plan-answer.ts';
import { formatAnthropicUsage, mapStopReason } from './anthropic-format.ts';
import type { MessageBlock } from './plan-message-blocks.ts';

export type MessageContext = {
  plan: AnswerPlan;
  blocks: readonly MessageBlock[];
  messageId: string;
  model: string;
  cacheTtl: '5m' | '1h';
};

/** The non-streamed `Message` (docs/reference/anthropic.md §Response). */
export function buildMessage(context: MessageContext): Record<string, unknown> {
  return {
    id: context.messageId,
    type: 'message',
    role: 'assistant',
    model: context.model,
    content: context.blocks.map(renderFinalBlock),
    stop_reason: mapStopReason(context.plan.finishReason),
    stop_sequence: context.plan.stopSequence ?? null,
    usage: formatAnthropicUsage(context.plan, context.cacheTtl),
  };
}

export function renderFinalBlock(block: MessageBlock): Record<string, unknown> {
  switch (block.type) {
    case 'thinking':
      return { type: 'thinking', thinking: block.tokens.join(''), signature: block.signature };
    case 'server_tool_use':
      return { type: 'server_tool_use', id: block.id, name: 'web_search', input: { query: block.query } };
    case 'web_search_tool_result':
      return { type: 'web_search_tool_result', tool_use_id: block.toolUseId, content: block.results };
    case 'text':
      return block.citations
        ? { type: 'text', text: block.tokens.join(''), citations: block.citations }
        : { type: 'text', text: block.tokens.join('') };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: parseToolInput(block.argumentsJson) };
    default:
      return assertNever(block);
  }
}

/** Arguments cut short by `max_tokens` are not valid JSON; the block then carries what could be parsed: nothing. */
function parseToolInput(argumentsJson: string): unknown {
  try {
    return JSON.parse(argumentsJson) as unknown;
  } catch {
    return {};
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected block ${JSON.stringify(value)}`);
}
