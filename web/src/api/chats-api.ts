import { apiEndpoints } from '../../../contract/api-endpoints.ts';
import type {
  BrowserChatKey,
  ChatVaultAnswer,
  Conversation,
  ConversationList,
  ConversationSummary,
  PutChatVaultRequest,
  PutConversationRequest,
} from '../../../contract/chats.ts';
import { callEndpoint } from './call-endpoint.ts';

export const getChatVault = (): Promise<ChatVaultAnswer> => callEndpoint(apiEndpoints.getChatVault, {});

export const putChatVault = (request: PutChatVaultRequest): Promise<ChatVaultAnswer> =>
  callEndpoint(apiEndpoints.putChatVault, { body: request });

export const listConversations = (): Promise<ConversationList> => callEndpoint(apiEndpoints.listConversations, {});

export const getConversation = (id: string): Promise<Conversation> =>
  callEndpoint(apiEndpoints.getConversation, { params: { id } });

export const putConversation = (id: string, request: PutConversationRequest): Promise<ConversationSummary> =>
  callEndpoint(apiEndpoints.putConversation, { params: { id }, body: request });

export const deleteConversation = (id: string) => callEndpoint(apiEndpoints.deleteConversation, { params: { id } });

/** The session's browser-chat API key: the chat page calls `/v1` with it, billed like any other key. */
export const getBrowserChatKey = (): Promise<BrowserChatKey> => callEndpoint(apiEndpoints.getBrowserChatKey, {});
