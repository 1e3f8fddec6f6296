import { z } from 'zod';

/**
 * What a conversation holds once decrypted. It is parsed with this schema after decryption: the ciphertext is
 * authenticated, but an older app version may have written a different shape.
 */
export const chatMessageSchema = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  createdAt: z.string(),
  model: z.string().optional(),
  /** How an answer ended: `stopped` by the user, `interrupted` by the network, or `failed` with `error`. */
  status: z.enum(['complete', 'stopped', 'interrupted', 'failed']).optional(),
  error: z.string().optional(),
  requestId: z.string().optional(),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number(), costUsd: z.number() }).optional(),
  citations: z.array(z.object({ url: z.string(), title: z.string() })).optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const conversationBodySchema = z.object({
  model: z.string(),
  isWebSearch: z.boolean(),
  messages: z.array(chatMessageSchema),
});
export type ConversationBody = z.infer<typeof conversationBodySchema>;

/** A conversation as the page holds it: decrypted title, its key, and the body once opened. */
export type ConversationEntry = {
  id: string;
  title: string;
  /** The stored version this copy is based on; 0 before the first save. */
  version: number;
  updatedAt: string;
  key: CryptoKey;
  wrappedKey: string;
  body: ConversationBody | undefined;
};

/** Money and tokens of a conversation, summed in integer micro-dollars. */
export function totalOf(body: ConversationBody): { costUsd: number; tokens: number } {
  let micros = 0;
  let tokens = 0;
  for (const message of body.messages) {
    if (!message.usage) continue;
    micros += Math.round(message.usage.costUsd * 1e6);
    tokens += message.usage.inputTokens + message.usage.outputTokens;
  }
  return { costUsd: micros / 1e6, tokens };
}

/**
 * Joins a stored copy and a local one after a version conflict: the stored messages, then the local ones it lacks
 * (by id), so neither tab's messages are lost.
 */
export function mergeBodies(stored: ConversationBody, local: ConversationBody): ConversationBody {
  const storedIds = new Set(stored.messages.map((message) => message.id));
  return {
    ...local,
    messages: [...stored.messages, ...local.messages.filter((message) => !storedIds.has(message.id))],
  };
}
