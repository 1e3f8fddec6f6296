import type { ChatRequest } from '../openai-api/chat-request.ts';
import type { RequestSize } from './reserve-credits.ts';

/**
 * What the hold needs to know of a chat request: its input's UTF-8 byte count (message text, tool calls, tool
 * definitions and the response schema, all of which vendors bill as input; an image counts as an image, not as the
 * bytes of its URL), messages and images, its output limit and how many choices (`n`) the vendor writes and bills.
 */
export function measureChatRequest(request: ChatRequest): RequestSize {
  let textBytes = 0;
  let imageCount = 0;
  const count = (text: string | null | undefined) => {
    // Counted without encoding a copy; a lone surrogate counts 3 bytes here as in TextEncoder's U+FFFD.
    if (text) textBytes += Buffer.byteLength(text);
  };
  for (const message of request.messages) {
    if (typeof message.content === 'string') count(message.content);
    else if (Array.isArray(message.content)) {
      for (const part of message.content) {
        if (part.type === 'text' && 'text' in part) count(String(part.text));
        else if (part.type === 'image_url') imageCount += 1;
        else count(JSON.stringify(part));
      }
    }
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) count(call.function.name + call.function.arguments);
    }
  }
  if (request.tools) count(JSON.stringify(request.tools));
  if (request.response_format) count(JSON.stringify(request.response_format));
  return {
    textBytes,
    messageCount: request.messages.length,
    imageCount,
    requestedMaxOutputTokens: request.max_completion_tokens ?? request.max_tokens ?? undefined,
    choiceCount: request.n ?? 1,
  };
}
