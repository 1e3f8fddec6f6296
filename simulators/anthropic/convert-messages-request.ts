import {
  countToolRounds,
  type Conversation,
  type InputUnit,
  type LastTurn,
  type ReasoningRequest,
  type ToolChoice,
  type TurnKind,
} from '../shared/conversation.ts';
import type { CachePolicy } from '../shared/prompt-cache.ts';
import type { MessagesContentBlock, MessagesMessage, MessagesRequest } from './messages-request-schema.ts';

export type ConvertedMessagesRequest = {
  conversation: Conversation;
  cachePolicy: CachePolicy;
  /** Which `cache_creation` bucket writes go to. */
  cacheTtl: '5m' | '1h';
};

// Anthropic's smallest cacheable prompt (Sonnet and Opus); shorter prefixes are neither written nor read.
const minimumCacheableTokens = 1024;
const maximumThinkingTokens = 48;

/** Consecutive turns of the same role are merged by the API (docs/reference/anthropic.md §Request). */
export function mergeConsecutiveTurns(messages: readonly MessagesMessage[]): MessagesMessage[] {
  const merged: MessagesMessage[] = [];
  for (const message of messages) {
    const previous = merged.at(-1);
    if (previous && previous.role === message.role) {
      merged[merged.length - 1] = {
        ...previous,
        content: [...toBlocks(previous.content), ...toBlocks(message.content)],
      };
    } else {
      merged.push(message);
    }
  }
  return merged;
}

export function convertMessagesRequest(
  request: MessagesRequest,
  messages: readonly MessagesMessage[],
): ConvertedMessagesRequest {
  const units: InputUnit[] = [];
  const breakpoints: number[] = [];
  const ttls: string[] = [];
  const noteCacheControl = (cacheControl: { ttl?: string | undefined } | null | undefined) => {
    if (!cacheControl) return;
    breakpoints.push(units.length - 1);
    ttls.push(cacheControl.ttl ?? '5m');
  };
  const customTools = (request.tools ?? []).filter((tool) => tool.type === undefined || tool.type === 'custom');
  if (request.tools && request.tools.length > 0) {
    units.push({ text: JSON.stringify(request.tools), imageCount: 0, isMessage: false });
    noteCacheControl(request.tools.find((tool) => tool.cache_control)?.cache_control);
  }
  if (request.system !== undefined) {
    const systemBlocks =
      typeof request.system === 'string' ? [{ text: request.system, cache_control: undefined }] : request.system;
    units.push({ text: systemBlocks.map((block) => block.text).join('\n'), imageCount: 0, isMessage: true });
    noteCacheControl(systemBlocks.find((block) => block.cache_control)?.cache_control);
  }
  for (const message of messages) {
    const blocks = toBlocks(message.content);
    units.push({
      text: blocks.map(blockText).filter(Boolean).join('\n'),
      imageCount: blocks.filter((block) => block.type === 'image' || block.type === 'document').length,
      isMessage: true,
    });
    noteCacheControl(blocks.find((block) => block.cache_control)?.cache_control);
  }
  // Top-level cache_control caches up to the last cacheable block (automatic prompt caching).
  if (request.cache_control) noteCacheControl(request.cache_control);
  const lastUser = [...messages].reverse().find((message) => message.role === 'user' && userText(message) !== '');
  return {
    conversation: {
      model: request.model,
      units,
      lastTurn: findLastTurn(messages),
      toolRoundsInTurn: countToolRounds(messages.map(turnKind)),
      lastUserText: lastUser ? userText(lastUser) : '',
      tools: customTools.map((tool) => ({ name: tool.name, parametersSchema: tool.input_schema })),
      toolChoice: convertToolChoice(request),
      canCallToolsInParallel: request.tool_choice?.disable_parallel_tool_use !== true,
      hasWebSearch: (request.tools ?? []).some((tool) => tool.type?.startsWith('web_search') === true),
      maxOutputTokens: request.max_tokens,
      reasoning: convertThinking(request),
      outputFormat:
        request.output_config?.format?.type === 'json_schema'
          ? { kind: 'json', schema: request.output_config.format.schema }
          : { kind: 'text' },
      stopSequences: request.stop_sequences ?? [],
    },
    cachePolicy: {
      kind: 'explicit',
      minimumTokens: minimumCacheableTokens,
      breakpoints: [...new Set(breakpoints)].sort((a, b) => a - b),
    },
    cacheTtl: ttls.includes('1h') ? '1h' : '5m',
  };
}

function toBlocks(content: MessagesMessage['content']): MessagesContentBlock[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

function blockText(block: MessagesContentBlock): string {
  if (block.type === 'tool_use') return `${block.name ?? ''} ${JSON.stringify(block.input ?? {})}`;
  if (block.type === 'tool_result') {
    const content = block.content ?? '';
    return typeof content === 'string' ? content : content.map((part) => part.text ?? '').join('\n');
  }
  return block.text ?? block.thinking ?? '';
}

function userText(message: MessagesMessage): string {
  return toBlocks(message.content)
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}

function findLastTurn(messages: readonly MessagesMessage[]): LastTurn {
  const last = messages.at(-1);
  if (!last || last.role === 'assistant') return 'assistant';
  return toBlocks(last.content).some((block) => block.type === 'tool_result') ? 'tool-result' : 'user';
}

function turnKind(message: MessagesMessage): TurnKind {
  const blocks = toBlocks(message.content);
  if (message.role === 'assistant') return blocks.some((block) => block.type === 'tool_use') ? 'tool-call' : 'other';
  return blocks.some((block) => block.type === 'tool_result') ? 'other' : 'user';
}

function convertToolChoice(request: MessagesRequest): ToolChoice {
  const choice = request.tool_choice;
  if (!choice || choice.type === 'auto') return { kind: 'auto' };
  if (choice.type === 'any') return { kind: 'required' };
  if (choice.type === 'tool') return { kind: 'named', name: choice.name ?? '' };
  return { kind: 'none' };
}

function convertThinking(request: MessagesRequest): ReasoningRequest | undefined {
  const thinking = request.thinking;
  if (thinking?.type === 'enabled')
    return { targetTokens: Math.min(thinking.budget_tokens ?? 1024, maximumThinkingTokens) };
  if (thinking?.type === 'adaptive') return { targetTokens: 32 };
  return undefined;
}
