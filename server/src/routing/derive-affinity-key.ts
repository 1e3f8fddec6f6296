import { createHash } from 'node:crypto';
import type { ChatMessage, ChatRequest } from '../openai-api/chat-request.ts';

/**
 * What identifies a conversation, for "same conversation, same route": the client's `prompt_cache_key` (OpenAI's
 * field for exactly this), else `metadata.session_id`, else `user`, else the opening of the conversation (system and
 * developer messages and the first user message), which stays the same as the conversation grows. Scoped to the
 * account, and hashed at once: the text is never kept.
 */
export function deriveAffinityKey(input: { userId: string; request: ChatRequest }): string {
  const hash = createHash('sha256').update(input.userId).update('\u0000');
  const explicit = readExplicitKey(input.request);
  if (explicit !== undefined) return hash.update('key\u0000').update(explicit).digest('base64url');
  hash.update('opening\u0000');
  for (const message of openingMessages(input.request.messages)) {
    hash.update(message.role).update('\u0000').update(contentText(message)).update('\u0000');
  }
  return hash.digest('base64url');
}

function readExplicitKey(request: ChatRequest): string | undefined {
  const promptCacheKey = (request as Record<string, unknown>)['prompt_cache_key'];
  if (typeof promptCacheKey === 'string' && promptCacheKey !== '') return promptCacheKey;
  const sessionId = request.metadata?.['session_id'];
  if (sessionId) return sessionId;
  return request.user || undefined;
}

function openingMessages(messages: readonly ChatMessage[]): ChatMessage[] {
  const firstUser = messages.findIndex((message) => message.role === 'user');
  if (firstUser === -1) return messages.slice(0, 1);
  return messages
    .slice(0, firstUser + 1)
    .filter((message) => message.role === 'system' || message.role === 'developer' || message.role === 'user');
}

function contentText(message: ChatMessage): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : part.type)).join('\n');
}
