import { InvalidRequestError } from '../../errors/invalid-request-error.ts';
import type { ChatMessage } from '../../openai-api/chat-request.ts';
import { assertNever } from '../shared/assert-never.ts';
import { isHttpUrl, parseDataUrl } from '../shared/data-url.ts';
import { joinTextContent } from '../shared/join-text-content.ts';
import { parseToolArguments } from '../shared/parse-tool-arguments.ts';
import { splitSignature } from '../shared/tool-call-id.ts';
import type { GeminiContent, GeminiPart } from './gemini-api.ts';

type UserMessage = Extract<ChatMessage, { role: 'user' }>;
type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

/**
 * Gemini documents this value for function calls whose signature is unknown (history from another model or
 * vendor); without a signature Gemini 3 refuses the replayed call with a 400.
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
const unknownThoughtSignature = 'skip_thought_signature_validator';

/** Image types by file extension, for https images passed to Gemini as `fileData`. */
const imageTypeByExtension: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  heic: 'image/heic',
  heif: 'image/heif',
};

/**
 * OpenAI messages → Gemini `systemInstruction` and `contents` (docs/reference/gemini.md §Request, docs/reference/mapping.md):
 * - system and developer messages are hoisted into `systemInstruction`;
 * - assistant turns are role `model`; tool calls become `functionCall` parts with parsed arguments and the
 *   `thoughtSignature` recovered from the tool-call id (`shared/tool-call-id.ts`); a turn whose calls carry no
 *   signature gets Gemini's documented placeholder on its first call;
 * - tool messages become `functionResponse` parts (`{output: <text>}`) named after the call they answer, in a user
 *   turn; consecutive turns of one role are merged, so parallel results share one turn. Tool-call ids are not sent:
 *   the Gemini API matches responses by name and order;
 * - images: base64 data URLs become `inlineData`; https URLs become `fileData` (Gemini fetches public URLs), with
 *   the media type taken from the file extension when it has one.
 * @see https://ai.google.dev/api/generate-content#request-body
 * @see https://ai.google.dev/gemini-api/docs/file-input-methods
 */
export function convertContents(messages: readonly ChatMessage[]): {
  systemTexts: string[];
  contents: GeminiContent[];
} {
  const systemTexts: string[] = [];
  const contents: GeminiContent[] = [];
  const toolNames = new Map<string, string>();
  messages.forEach((message, index) => {
    switch (message.role) {
      case 'system':
      case 'developer': {
        const text = joinTextContent(message.content);
        if (text !== '') systemTexts.push(text);
        return;
      }
      case 'user':
        return appendContent(contents, 'user', convertUserParts(message, index));
      case 'assistant':
        return appendContent(contents, 'model', convertAssistantParts(message, index, toolNames));
      case 'tool': {
        const name = toolNames.get(splitSignature(message.tool_call_id).id);
        if (name === undefined) {
          throw new InvalidRequestError('tool_call_id does not match a tool call of an earlier assistant message.', {
            param: `messages[${index}].tool_call_id`,
          });
        }
        const output = joinTextContent(message.content);
        return appendContent(contents, 'user', [{ functionResponse: { name, response: { output } } }]);
      }
      default:
        return assertNever(message);
    }
  });
  return { systemTexts, contents };
}

function appendContent(contents: GeminiContent[], role: GeminiContent['role'], parts: GeminiPart[]): void {
  if (parts.length === 0) return;
  const last = contents.at(-1);
  if (last?.role === role) last.parts.push(...parts);
  else contents.push({ role, parts });
}

function convertUserParts(message: UserMessage, messageIndex: number): GeminiPart[] {
  if (typeof message.content === 'string') return [{ text: message.content }];
  return message.content.map((part, partIndex): GeminiPart => {
    const param = `messages[${messageIndex}].content[${partIndex}]`;
    switch (part.type) {
      case 'text':
        return { text: part.text };
      case 'image_url':
        return convertImage(part.image_url.url, `${param}.image_url.url`);
      case 'input_audio':
      case 'file':
      case 'refusal':
        throw new InvalidRequestError(`Content parts of type '${part.type}' are not supported by Gemini models.`, {
          param: `${param}.type`,
        });
      default:
        return assertNever(part);
    }
  });
}

function convertImage(url: string, param: string): GeminiPart {
  const dataUrl = parseDataUrl(url);
  if (dataUrl !== undefined) return { inlineData: { mimeType: dataUrl.mediaType, data: dataUrl.base64 } };
  if (!isHttpUrl(url)) {
    throw new InvalidRequestError('An image URL must be an https URL or a base64 data URL.', { param });
  }
  const extension = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  const mimeType = extension === undefined ? undefined : imageTypeByExtension[extension];
  return { fileData: { fileUri: url, ...(mimeType === undefined ? {} : { mimeType }) } };
}

function convertAssistantParts(
  message: AssistantMessage,
  messageIndex: number,
  toolNames: Map<string, string>,
): GeminiPart[] {
  const parts = typeof message.content === 'string' ? [{ text: message.content }] : (message.content ?? []);
  const texts: GeminiPart[] = parts.flatMap((part) =>
    'text' in part && typeof part.text === 'string' && part.text !== '' ? [{ text: part.text }] : [],
  );
  const calls = (message.tool_calls ?? []).map((call) => ({ call, ...splitSignature(call.id) }));
  const hasAnySignature = calls.some((entry) => entry.signature !== undefined);
  const functionCalls = calls.map(({ call, id, signature }, callIndex): GeminiPart => {
    toolNames.set(id, call.function.name);
    const args = parseToolArguments(
      call.function.arguments,
      `messages[${messageIndex}].tool_calls[${callIndex}].function.arguments`,
    );
    const thoughtSignature = signature ?? (!hasAnySignature && callIndex === 0 ? unknownThoughtSignature : undefined);
    return {
      functionCall: { name: call.function.name, args },
      ...(thoughtSignature === undefined ? {} : { thoughtSignature }),
    };
  });
  return [...texts, ...functionCalls];
}
