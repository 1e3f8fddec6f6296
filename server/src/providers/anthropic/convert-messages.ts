import { InvalidRequestError } from '../../errors/invalid-request-error.ts';
import type { ChatMessage } from '../../openai-api/chat-request.ts';
import { assertNever } from '../shared/assert-never.ts';
import { isHttpUrl, parseDataUrl } from '../shared/data-url.ts';
import { joinTextContent } from '../shared/join-text-content.ts';
import { parseToolArguments } from '../shared/parse-tool-arguments.ts';
import { isPresent } from '../shared/refuse-unsupported-parameters.ts';
import { splitSignature } from '../shared/tool-call-id.ts';
import type {
  AnthropicContentBlock,
  AnthropicImageBlock,
  AnthropicMessage,
  AnthropicTextBlock,
  AnthropicThinkingBlock,
} from './anthropic-api.ts';
import { readCacheControl } from './read-cache-control.ts';

type SystemMessage = Extract<ChatMessage, { role: 'system' | 'developer' }>;
type UserMessage = Extract<ChatMessage, { role: 'user' }>;
type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;
type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

const anthropicImageTypes: readonly string[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/**
 * OpenAI messages → Anthropic `system` and turns (docs/reference/mapping.md):
 * - every system and developer message is hoisted into `system`, in order (their position in the chat is lost);
 * - tool messages become `tool_result` blocks in a user turn; consecutive results share one turn, placed before any
 *   user text of that turn, as Anthropic requires; consecutive turns of one role are merged;
 * - assistant tool calls become `tool_use` blocks with their JSON arguments parsed; with thinking on, a thinking block
 *   is restored when a tool call's id carries its signature and the message carries `reasoning_content`;
 * - an assistant message with no text and no tool calls carries nothing and is left out (Anthropic rejects empty
 *   text blocks); an image URL must be https/http or a base64 data URL (JPEG, PNG, GIF, WebP);
 * - a `cache_control` on a part (Anthropic's prompt-cache breakpoint) stays on the block made from it.
 * @see https://docs.anthropic.com/en/api/messages
 */
export function convertMessages(
  messages: readonly ChatMessage[],
  options: { isThinkingEnabled: boolean },
): {
  system: AnthropicTextBlock[];
  messages: AnthropicMessage[];
} {
  const system: AnthropicTextBlock[] = [];
  const turns: AnthropicMessage[] = [];
  messages.forEach((message, index) => {
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(...convertSystemContent(message, index));
        return;
      case 'user':
        return appendTurn(turns, 'user', convertUserContent(message, index));
      case 'assistant':
        return appendTurn(turns, 'assistant', convertAssistantContent(message, index, options));
      case 'tool':
        return appendTurn(turns, 'user', [
          {
            type: 'tool_result',
            tool_use_id: splitSignature(message.tool_call_id).id,
            content: joinTextContent(message.content),
            ...readLastCacheControl(message.content, `messages[${index}].content`),
          },
        ]);
      default:
        return assertNever(message);
    }
  });
  return { system, messages: turns };
}

function appendTurn(turns: AnthropicMessage[], role: AnthropicMessage['role'], blocks: AnthropicContentBlock[]): void {
  if (blocks.length === 0) return;
  const last = turns.at(-1);
  if (last?.role !== role) {
    turns.push({ role, content: blocks });
    return;
  }
  const merged = [...last.content, ...blocks];
  last.content = [
    ...merged.filter((block) => block.type === 'tool_result'),
    ...merged.filter((block) => block.type !== 'tool_result'),
  ];
}

/**
 * A system or developer message is one system block, its parts joined; when a part carries a cache breakpoint, each
 * part is its own block, so the breakpoint stays where the client put it.
 */
function convertSystemContent(message: SystemMessage, messageIndex: number): AnthropicTextBlock[] {
  const { content } = message;
  if (typeof content !== 'string' && content.some((part) => isPresent(part['cache_control']))) {
    return content.flatMap((part, partIndex) =>
      part.text === ''
        ? []
        : [
            {
              type: 'text',
              text: part.text,
              ...readCacheControl(part, `messages[${messageIndex}].content[${partIndex}]`),
            },
          ],
    );
  }
  const text = joinTextContent(content);
  return text === '' ? [] : [{ type: 'text', text }];
}

/** A tool result is one block: it takes the breakpoint of its last part that has one. */
function readLastCacheControl(content: ToolMessage['content'], param: string): ReturnType<typeof readCacheControl> {
  if (typeof content === 'string') return {};
  const index = content.findLastIndex((part) => isPresent(part['cache_control']));
  return index === -1 ? {} : readCacheControl(content[index] ?? {}, `${param}[${index}]`);
}

function convertUserContent(message: UserMessage, messageIndex: number): AnthropicContentBlock[] {
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }];
  return message.content.map((part, partIndex): AnthropicContentBlock => {
    const param = `messages[${messageIndex}].content[${partIndex}]`;
    switch (part.type) {
      case 'text':
        return { type: 'text', text: part.text, ...readCacheControl(part, param) };
      case 'image_url':
        return { ...convertImage(part.image_url.url, `${param}.image_url.url`), ...readCacheControl(part, param) };
      case 'input_audio':
      case 'file':
      case 'refusal':
        throw new InvalidRequestError(`Content parts of type '${part.type}' are not supported by Anthropic models.`, {
          param: `${param}.type`,
        });
      default:
        return assertNever(part);
    }
  });
}

function convertImage(url: string, param: string): AnthropicImageBlock {
  const dataUrl = parseDataUrl(url);
  if (dataUrl !== undefined) {
    if (!anthropicImageTypes.includes(dataUrl.mediaType)) {
      throw new InvalidRequestError('Anthropic models accept JPEG, PNG, GIF or WebP images.', { param });
    }
    return { type: 'image', source: { type: 'base64', media_type: dataUrl.mediaType, data: dataUrl.base64 } };
  }
  if (isHttpUrl(url)) return { type: 'image', source: { type: 'url', url } };
  throw new InvalidRequestError('An image URL must be an https URL or a base64 data URL.', { param });
}

function convertAssistantContent(
  message: AssistantMessage,
  messageIndex: number,
  options: { isThinkingEnabled: boolean },
): AnthropicContentBlock[] {
  const thinking = options.isThinkingEnabled ? restoreThinking(message) : undefined;
  const parts = typeof message.content === 'string' ? [{ text: message.content }] : (message.content ?? []);
  const texts: AnthropicContentBlock[] = parts.flatMap((part, partIndex) => {
    const text = 'text' in part && typeof part.text === 'string' ? part.text : readRefusal(part);
    const param = `messages[${messageIndex}].content[${partIndex}]`;
    return text === '' ? [] : [{ type: 'text', text, ...readCacheControl(part, param) }];
  });
  const toolUses: AnthropicContentBlock[] = (message.tool_calls ?? []).map((call, callIndex) => ({
    type: 'tool_use',
    id: splitSignature(call.id).id,
    name: call.function.name,
    input: parseToolArguments(
      call.function.arguments,
      `messages[${messageIndex}].tool_calls[${callIndex}].function.arguments`,
    ),
  }));
  return [...(thinking === undefined ? [] : [thinking]), ...texts, ...toolUses];
}

function readRefusal(part: object): string {
  return 'refusal' in part && typeof part.refusal === 'string' ? part.refusal : '';
}

/** Anthropic requires the thinking block that preceded a tool call when the tool loop continues with thinking on. */
function restoreThinking(message: AssistantMessage): AnthropicThinkingBlock | undefined {
  const signature = (message.tool_calls ?? []).map((call) => splitSignature(call.id).signature).find(Boolean);
  const thinking = message.reasoning_content;
  if (signature === undefined || typeof thinking !== 'string' || thinking === '') return undefined;
  return { type: 'thinking', thinking, signature };
}
