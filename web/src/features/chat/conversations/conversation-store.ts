import { deleteConversation, getConversation, listConversations, putConversation } from '../../../api/chats-api.ts';
import { ApiError } from '../../../api/api-client.ts';
import { createConversationKey, openConversationKey, openText, sealText } from '../crypto/chat-crypto.ts';
import {
  conversationBodySchema,
  mergeBodies,
  type ConversationBody,
  type ConversationEntry,
} from './conversation-body.ts';

/** The user's conversations with their titles decrypted (bodies are opened one at a time, when needed). */
export async function loadConversationList(accountKey: CryptoKey): Promise<ConversationEntry[]> {
  const { data } = await listConversations();
  return Promise.all(
    data.map(async (summary) => {
      const key = await openConversationKey(accountKey, summary.id, summary.wrapped_key);
      const title = await openText(key, { conversationId: summary.id, field: 'title', sealed: summary.sealed_title });
      return {
        id: summary.id,
        title,
        version: summary.version,
        updatedAt: summary.updated_at,
        key,
        wrappedKey: summary.wrapped_key,
        body: undefined,
      };
    }),
  );
}

/** A new conversation, not yet stored: its id and key are made here, so its first save is already encrypted. */
export async function createConversation(
  accountKey: CryptoKey,
  input: { title: string; body: ConversationBody },
): Promise<ConversationEntry> {
  const id = crypto.randomUUID();
  const { key, wrapped } = await createConversationKey(accountKey, id);
  return {
    id,
    title: input.title,
    version: 0,
    updatedAt: new Date().toISOString(),
    key,
    wrappedKey: wrapped,
    body: input.body,
  };
}

export async function loadConversationBody(
  entry: ConversationEntry,
): Promise<{ body: ConversationBody; version: number }> {
  const stored = await getConversation(entry.id);
  const text = await openText(entry.key, { conversationId: entry.id, field: 'body', sealed: stored.sealed_body });
  return { body: conversationBodySchema.parse(JSON.parse(text)), version: stored.version };
}

/**
 * Encrypts and stores a conversation, naming the version it replaces. When another tab saved meanwhile (409), the
 * stored copy is decrypted, merged with this one (no message of either is lost) and saved over its version.
 */
export async function saveConversation(
  entry: ConversationEntry & { body: ConversationBody },
): Promise<ConversationEntry> {
  try {
    return await put(entry, entry.body, entry.version);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'version_conflict')) throw error;
    const stored = await loadConversationBody(entry);
    const merged = mergeBodies(stored.body, entry.body);
    return put({ ...entry, body: merged }, merged, stored.version);
  }
}

async function put(
  entry: ConversationEntry,
  body: ConversationBody,
  expectedVersion: number,
): Promise<ConversationEntry> {
  const context = { conversationId: entry.id };
  const summary = await putConversation(entry.id, {
    ...(expectedVersion === 0 ? { wrapped_key: entry.wrappedKey } : {}),
    sealed_title: await sealText(entry.key, { ...context, field: 'title', text: entry.title }),
    sealed_body: await sealText(entry.key, { ...context, field: 'body', text: JSON.stringify(body) }),
    expected_version: expectedVersion,
  });
  return { ...entry, body, version: summary.version, updatedAt: summary.updated_at };
}

/** Deletes the conversation on the server: its ciphertext and its wrapped key, together. */
export async function removeConversation(id: string): Promise<void> {
  await deleteConversation(id);
}
