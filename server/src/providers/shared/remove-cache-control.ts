import type { ChatMessage } from '../../openai-api/chat-request.ts';

type RequestBody = { messages: ChatMessage[]; [field: string]: unknown };

/**
 * The body without Anthropic-style `cache_control` prompt-cache breakpoints (on the request, its tools, messages and
 * content parts), for vendors that cache prompt prefixes on their own and reject the unknown field (OpenAI answers
 * 400 "Unrecognized request argument"). The breakpoints only say what to cache; the answer is the same without them.
 */
export function removeCacheControl(body: RequestBody): RequestBody {
  const { cache_control: _request, ...rest } = body;
  const tools = rest['tools'];
  return {
    ...rest,
    ...(Array.isArray(tools) ? { tools: tools.map(withoutCacheControl) } : {}),
    messages: body.messages.map(removeFromMessage),
  };
}

function removeFromMessage(message: ChatMessage): ChatMessage {
  const cleaned = withoutCacheControl(message);
  const content: unknown = cleaned.content;
  return Array.isArray(content) ? ({ ...cleaned, content: content.map(withoutCacheControl) } as ChatMessage) : cleaned;
}

function withoutCacheControl<Value>(value: Value): Value {
  if (typeof value !== 'object' || value === null || !('cache_control' in value)) return value;
  const { cache_control: _removed, ...rest } = value;
  return rest as Value;
}
