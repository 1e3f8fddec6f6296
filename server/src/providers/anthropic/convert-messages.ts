import { InvalidRequestError } from '../../errors/invalid-request-error.ts';
import type { ChatMessage } from '../../openai-api/chat-request.ts';
import { assertNever } from '../shared/assert-never.ts';
import { isHttpUrl, parseDataUrl } from '../shared/data-url.ts';
import { joinTextContent } from '../shared/join-text-content.ts';
import { parseToolArguments } from '../shared/parse-tool-arguments.ts';
import { splitSignature } from '../shared/tool-call-id.ts';
import type {
  AnthropicContentBlock,
  AnthropicImageBlock,
  AnthropicMessage,
  AnthropicTextBlock,
  AnthropicThinkingBlock,
} from './anthropic-api.ts';

type UserMessage = Extract<ChatMessage, { role: 'user' }>;
type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

const anthropicImageTypes: readonly string[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/**
 * OpenAI messages → Anthropic `system` and turns (wire-formats §7):
 * - every system and developer message is hoisted into `system`, in order (their position in the chat is lost);
 * - tool messages become `tool_result` blocks in a user turn; consecutive results share one turn, placed before any
 *   user text of that turn, as Anthropic requires; consecutive turns of one role are merged;
 * - assistant tool calls become `tool_use` blocks with their JSON arguments parsed; with thinking on, a thinking block
 *   is restored when a tool call's id carries its signature and the message carries `reasoning_content`;
 * - an assistant message with no text and no tool calls carries nothing and is left out (Anthropic rejects empty
 *   text blocks); an image URL must be https/http or a base64 data URL (JPEG, PNG, GIF, WebP).
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
      case 'developer': {
        const text = joinTextContent(message.content);
        if (text !== '') system.push({ type: 'text', text });
        return;
      }
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

function convertUserContent(message: UserMessage, messageIndex: number): AnthropicContentBlock[] {
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }];
  return message.content.map((part, partIndex): AnthropicContentBlock => {
    const param = `messages[${messageIndex}].content[${partIndex}]`;
    switch (part.type) {
      case 'text':
        return { type: 'text', text: part.text };
      case 'image_url':
        return convertImage(part.image_url.url, `${param}.image_url.url`);
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
  const texts: AnthropicContentBlock[] = parts.flatMap((part) => {
    const text = 'text' in part && typeof part.text === 'string' ? part.text : readRefusal(part);
    return text === '' ? [] : [{ type: 'text', text }];
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
