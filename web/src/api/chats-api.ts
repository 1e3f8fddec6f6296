import {
  browserChatKeySchema,
  chatVaultAnswerSchema,
  conversationListSchema,
  conversationSchema,
  conversationSummarySchema,
  deletedConversationSchema,
  type BrowserChatKey,
  type ChatVaultAnswer,
  type Conversation,
  type ConversationList,
  type ConversationSummary,
  type PutChatVaultRequest,
  type PutConversationRequest,
} from '../../../contract/chats.ts';
import { getJson, sendJson } from './api-client.ts';

const conversationPath = (id: string) => `/api/chats/conversations/${encodeURIComponent(id)}`;

export const getChatVault = (): Promise<ChatVaultAnswer> => getJson('/api/chats/vault', chatVaultAnswerSchema);

export const putChatVault = (request: PutChatVaultRequest): Promise<ChatVaultAnswer> =>
  sendJson('/api/chats/vault', chatVaultAnswerSchema, { method: 'PUT', body: request });

export const listConversations = (): Promise<ConversationList> =>
  getJson('/api/chats/conversations', conversationListSchema);

export const getConversation = (id: string): Promise<Conversation> => getJson(conversationPath(id), conversationSchema);

export const putConversation = (id: string, request: PutConversationRequest): Promise<ConversationSummary> =>
  sendJson(conversationPath(id), conversationSummarySchema, { method: 'PUT', body: request });

export const deleteConversation = (id: string) =>
  sendJson(conversationPath(id), deletedConversationSchema, { method: 'DELETE' });

/** The session's browser-chat API key: the chat page calls `/v1` with it, billed like any other key. */
export const getBrowserChatKey = (): Promise<BrowserChatKey> =>
  sendJson('/api/chat-key', browserChatKeySchema, { method: 'POST' });
