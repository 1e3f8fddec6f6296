import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import type { ChatContentPart, ChatMessage, ChatToolCall } from '../openai-api/chat-request.ts';
import { carryCacheControl } from './carry-cache-control.ts';
import type { ContentBlockParam, MessageParam } from './messages-request.ts';

type Block<Type extends ContentBlockParam['type']> = Extract<ContentBlockParam, { type: Type }>;

/**
 * Anthropic turns → OpenAI chat messages (docs/reference/mapping.md):
 * - a user turn's `tool_result` blocks become `tool` messages, one per result, placed before the rest of the turn
 *   (OpenAI wants them right after the assistant's tool calls); `is_error` has no OpenAI field, so the result text
 *   is sent as it is;
 * - an assistant turn's text blocks become its content, `tool_use` blocks its `tool_calls` (input as a JSON string,
 *   the id unchanged so the result still matches it), and `thinking` blocks its `reasoning_content`;
 * - images become `image_url` parts: a base64 source as a data URL, a url source as that URL;
 * - a block's `cache_control` (prompt-cache breakpoint) stays on the part made from it;
 * - a `system` turn becomes a system message where it stands (each vendor adapter then gives it the target's system
 *   or developer role), except between tool calls and their results, which OpenAI wants adjacent: there it moves
 *   to just after the results.
 */
export function convertMessageParams(messages: readonly MessageParam[]): ChatMessage[] {
  if (messages.every((message) => message.role === 'system')) {
    throw new InvalidRequestError('messages has only system turns: send at least one user turn.', {
      param: 'messages',
    });
  }
  checkToolResultsFollowToolUses(messages);
  const converted = messages.flatMap((message, index): ChatMessage[] => {
    switch (message.role) {
      case 'user':
        return convertUserTurn(message.content, index);
      case 'assistant':
        return [convertAssistantTurn(message.content, index)];
      case 'system':
        return [convertSystemTurn(message.content, index)];
    }
  });
  return keepToolResultsAfterToolCalls(converted);
}

function convertSystemTurn(content: MessageParam['content'], messageIndex: number): ChatMessage {
  if (typeof content === 'string') return { role: 'system', content };
  const parts = content.map((block, blockIndex) => {
    if (block.type !== 'text')
      throw refuseBlock(block.type, 'system', `messages[${messageIndex}].content[${blockIndex}]`);
    return { type: 'text' as const, text: block.text, ...carryCacheControl(block) };
  });
  return { role: 'system', content: parts };
}

/** Moves system messages that sit between an assistant's tool calls and the tool results to after the results. */
function keepToolResultsAfterToolCalls(messages: readonly ChatMessage[]): ChatMessage[] {
  const ordered: ChatMessage[] = [];
  let waiting: ChatMessage[] = [];
  let isAfterToolCalls = false;
  for (const message of messages) {
    if (message.role === 'system' && isAfterToolCalls) {
      waiting.push(message);
      continue;
    }
    if (message.role !== 'tool') {
      ordered.push(...waiting);
      waiting = [];
    }
    ordered.push(message);
    isAfterToolCalls =
      message.role === 'tool' || (message.role === 'assistant' && (message.tool_calls?.length ?? 0) > 0);
  }
  return [...ordered, ...waiting];
}

/**
 * Anthropic's rule, checked here so that the error names the Anthropic field: each `tool_result` answers a `tool_use`
 * of the assistant turn just before it, and a `tool_use` followed by a user turn is answered there.
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#handling-tool-use-and-tool-result-content-blocks
 */
function checkToolResultsFollowToolUses(messages: readonly MessageParam[]): void {
  messages.forEach((message, messageIndex) => {
    if (message.role !== 'user') return;
    const previous = messages.slice(0, messageIndex).findLast((turn) => turn.role !== 'system');
    const toolUseIds = blocksOf(previous?.role === 'assistant' ? previous : undefined).flatMap((block) =>
      block.type === 'tool_use' ? [block.id] : [],
    );
    const blocks = blocksOf(message);
    blocks.forEach((block, blockIndex) => {
      if (block.type === 'tool_result' && !toolUseIds.includes(block.tool_use_id)) {
        throw new InvalidRequestError(
          `messages[${messageIndex}].content[${blockIndex}]: tool_result for '${block.tool_use_id}' has no tool_use with that id in the previous assistant turn.`,
          { param: `messages[${messageIndex}].content[${blockIndex}].tool_use_id` },
        );
      }
    });
    const answered = blocks.flatMap((block) => (block.type === 'tool_result' ? [block.tool_use_id] : []));
    const unanswered = toolUseIds.find((id) => !answered.includes(id));
    if (unanswered !== undefined) {
      throw new InvalidRequestError(
        `messages[${messageIndex}]: tool_use '${unanswered}' of the previous assistant turn has no tool_result here.`,
        { param: `messages[${messageIndex}].content` },
      );
    }
  });
}

function blocksOf(message: MessageParam | undefined): ContentBlockParam[] {
  return message === undefined || typeof message.content === 'string' ? [] : message.content;
}

function convertUserTurn(content: MessageParam['content'], messageIndex: number): ChatMessage[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  const toolMessages: ChatMessage[] = [];
  const parts: ChatContentPart[] = [];
  content.forEach((block, blockIndex) => {
    const param = `messages[${messageIndex}].content[${blockIndex}]`;
    switch (block.type) {
      case 'text':
        parts.push({ type: 'text', text: block.text, ...carryCacheControl(block) });
        return;
      case 'image':
        parts.push({ ...convertImage(block), ...carryCacheControl(block) });
        return;
      case 'tool_result':
        toolMessages.push({ role: 'tool', tool_call_id: block.tool_use_id, content: convertToolResult(block, param) });
        return;
      default:
        throw refuseBlock(block.type, 'user', param);
    }
  });
  return parts.length === 0 ? toolMessages : [...toolMessages, { role: 'user', content: parts }];
}

function convertAssistantTurn(content: MessageParam['content'], messageIndex: number): ChatMessage {
  if (typeof content === 'string') return { role: 'assistant', content };
  let text = '';
  let reasoning = '';
  const toolCalls: ChatToolCall[] = [];
  content.forEach((block, blockIndex) => {
    switch (block.type) {
      case 'text':
        text += block.text;
        return;
      case 'thinking':
        reasoning += block.thinking;
        return;
      case 'tool_use':
        toolCalls.push({
          id: block.id,
          type: 'function',
          function: { name: block.name, arguments: JSON.stringify(block.input) },
        });
        return;
      case 'server_tool_use':
      case 'web_search_tool_result':
        // Searches of an earlier turn: the answer text that used them stays, the results are not sent again.
        if (isWebSearchBlock(block)) return;
        throw refuseBlock(block.type, 'assistant', `messages[${messageIndex}].content[${blockIndex}]`);
      default:
        throw refuseBlock(block.type, 'assistant', `messages[${messageIndex}].content[${blockIndex}]`);
    }
  });
  const message: Extract<ChatMessage, { role: 'assistant' }> = {
    role: 'assistant',
    content: text === '' && toolCalls.length > 0 ? null : text,
  };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (reasoning !== '') message.reasoning_content = reasoning;
  return message;
}

function isWebSearchBlock(block: ContentBlockParam): boolean {
  return block.type === 'web_search_tool_result' || ('name' in block && block.name === 'web_search');
}

function convertImage(block: Block<'image'>): ChatContentPart {
  const source = block.source;
  const url = source.type === 'base64' ? `data:${source.media_type};base64,${source.data}` : source.url;
  return { type: 'image_url', image_url: { url } };
}

/** A tool result's text; with a cache breakpoint, one text part that carries it. */
function convertToolResult(
  block: Block<'tool_result'>,
  param: string,
): Extract<ChatMessage, { role: 'tool' }>['content'] {
  const text = readToolResult(block, param);
  const cacheControl = carryCacheControl(block);
  return cacheControl.cache_control === undefined ? text : [{ type: 'text', text, ...cacheControl }];
}

/** Tool results travel as text on the OpenAI wire; an image in a result has nowhere to go. */
function readToolResult(block: Block<'tool_result'>, param: string): string {
  if (block.content === undefined) return '';
  if (typeof block.content === 'string') return block.content;
  return block.content
    .map((part, partIndex) => {
      if (part.type === 'text') return part.text;
      throw new InvalidRequestError('Images inside tool_result content are not supported; send them in a user turn.', {
        param: `${param}.content[${partIndex}].type`,
        code: 'unsupported_parameter',
      });
    })
    .join('\n\n');
}

function refuseBlock(type: string, role: MessageParam['role'], param: string): InvalidRequestError {
  return new InvalidRequestError(`Content blocks of type '${type}' are not supported in ${role} turns here.`, {
    param: `${param}.type`,
    code: 'unsupported_parameter',
  });
}
