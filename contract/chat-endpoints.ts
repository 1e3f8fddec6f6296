import { sessionErrors, type ApiEndpoint } from './api-endpoint.ts';
import {
  browserChatKeySchema,
  chatVaultAnswerSchema,
  conversationListSchema,
  conversationSchema,
  conversationSummarySchema,
  deletedConversationSchema,
  putChatVaultRequestSchema,
  putConversationRequestSchema,
} from './chats.ts';

/**
 * The encrypted browser chat's storage (the wrapped account key and sealed conversations, which the server cannot
 * read) and the session's browser-chat API key.
 */
export const chatEndpoints = {
  getChatVault: {
    method: 'get',
    path: '/api/chats/vault',
    summary: 'The chat account key, wrapped under the passphrase-derived key (null before the first passphrase)',
    auth: 'session',
    response: {
      status: 200,
      description: 'The vault',
      json: { name: 'ChatVaultAnswer', schema: chatVaultAnswerSchema },
    },
    errors: sessionErrors,
  },
  putChatVault: {
    method: 'put',
    path: '/api/chats/vault',
    summary: 'Create the wrapped account key, or replace its wrapping after a passphrase change',
    auth: 'session',
    body: { name: 'PutChatVaultRequest', schema: putChatVaultRequestSchema },
    response: {
      status: 200,
      description: 'Stored',
      json: { name: 'ChatVaultAnswer', schema: chatVaultAnswerSchema },
    },
    errors: { ...sessionErrors, '400': 'Malformed value (`param` names it)', '409': 'Stale `expected_version`' },
  },
  listConversations: {
    method: 'get',
    path: '/api/chats/conversations',
    summary: 'The sealed titles and wrapped keys of the account’s conversations, most recently saved first',
    auth: 'session',
    response: {
      status: 200,
      description: 'The conversations',
      json: { name: 'ConversationList', schema: conversationListSchema },
    },
    errors: sessionErrors,
  },
  getConversation: {
    method: 'get',
    path: '/api/chats/conversations/{id}',
    summary: 'One conversation with its sealed body',
    auth: 'session',
    response: {
      status: 200,
      description: 'The conversation',
      json: { name: 'Conversation', schema: conversationSchema },
    },
    errors: {
      ...sessionErrors,
      '400': 'Malformed conversation id (`param`: `id`)',
      '404': 'No such conversation on this account',
    },
  },
  putConversation: {
    method: 'put',
    path: '/api/chats/conversations/{id}',
    summary: 'Create a conversation (`expected_version` 0) or replace its sealed title and body',
    auth: 'session',
    body: { name: 'PutConversationRequest', schema: putConversationRequestSchema },
    response: {
      status: 200,
      description: 'Saved, with the new version',
      json: { name: 'ConversationSummary', schema: conversationSummarySchema },
    },
    errors: {
      ...sessionErrors,
      '400': 'Malformed value (`param` names it)',
      '404': 'No such conversation on this account',
      '409': 'Stale `expected_version`: saved elsewhere meanwhile',
    },
  },
  deleteConversation: {
    method: 'delete',
    path: '/api/chats/conversations/{id}',
    summary: 'Delete a conversation: its sealed body and wrapped key go in one transaction',
    auth: 'session',
    response: {
      status: 200,
      description: 'Deleted',
      json: { name: 'DeletedConversation', schema: deletedConversationSchema },
    },
    errors: {
      ...sessionErrors,
      '400': 'Malformed conversation id (`param`: `id`)',
      '404': 'No such conversation on this account',
    },
  },
  getBrowserChatKey: {
    method: 'post',
    path: '/api/chat-key',
    summary: 'The session’s short-lived API key for the browser chat (revoked at sign-out)',
    auth: 'session',
    response: { status: 200, description: 'The key', json: { name: 'BrowserChatKey', schema: browserChatKeySchema } },
    errors: sessionErrors,
  },
} as const satisfies Record<string, ApiEndpoint>;
