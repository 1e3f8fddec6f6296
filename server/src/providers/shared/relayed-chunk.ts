import type { ChatChunk } from '../../openai-api/chat-completion.ts';

/**
 * The text of chunks forwarded as the vendor wrote them (with the gateway's `id`, `created` and `model` spliced in),
 * keyed by the parsed chunk the relay reads for billing. Kept beside the chunk rather than on it, so a sink that
 * serialises or converts chunks (another API's shape) never sees an extra field.
 */
const relayedJson = new WeakMap<ChatChunk, string>();

/** Records the text a chunk is to be sent as, and returns the chunk. */
export function markRelayed(chunk: ChatChunk, json: string): ChatChunk {
  relayedJson.set(chunk, json);
  return chunk;
}

/** The text to send for a chunk forwarded as sent, or undefined for a chunk the gateway built. */
export function readRelayedJson(chunk: ChatChunk): string | undefined {
  return relayedJson.get(chunk);
}
