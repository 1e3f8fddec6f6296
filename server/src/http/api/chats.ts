import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  browserChatKeySchema,
  chatVaultAnswerSchema,
  conversationIdSchema,
  conversationListSchema,
  conversationSchema,
  conversationSummarySchema,
  deletedConversationSchema,
  putChatVaultRequestSchema,
  putConversationRequestSchema,
} from '../../../../contract/chats.ts';
import { getBrowserChatKey, revokeBrowserChatKeys, type BrowserChatKeyDeps } from '../../chats/browser-chat-key.ts';
import {
  deleteChatConversation,
  getChatConversation,
  listChatConversations,
  saveChatConversation,
} from '../../chats/chat-conversations.ts';
import { getChatVault, saveChatVault } from '../../chats/chat-vault.ts';
import { AuthenticationError } from '../../errors/authentication-error.ts';
import { InvalidRequestError } from '../../errors/invalid-request-error.ts';
import { parseWireRequest } from '../../openai-api/parse-request.ts';
import type { SessionGuard } from '../middleware/session.ts';
import { readSessionToken } from '../session-cookie.ts';
import type { AccountApiOperation } from './account-api-operations.ts';

export type ChatRouteDeps = BrowserChatKeyDeps & { sessions: SessionGuard };

type WithId = { Params: { id: string } };

/**
 * The encrypted browser chat's storage (`/api/chats`: the wrapped account key and sealed conversations, which the
 * server cannot read) and the session's browser-chat API key (`POST /api/chat-key`). Signing out revokes that key.
 */
export function registerChatRoutes(app: FastifyInstance, deps: ChatRouteDeps): void {
  const userOf = (request: FastifyRequest) => deps.sessions.requireSession(request).userId;
  const conversationOf = (request: FastifyRequest<WithId>) => ({
    userId: userOf(request),
    id: parseConversationId(request.params.id),
  });

  app.get('/api/chats/vault', async (request) => getChatVault(deps, userOf(request)));

  app.put('/api/chats/vault', async (request) => {
    const userId = userOf(request);
    return saveChatVault(deps, { userId, request: parseWireRequest(putChatVaultRequestSchema, request.body) });
  });

  app.get('/api/chats/conversations', async (request) => listChatConversations(deps, userOf(request)));

  app.get<WithId>('/api/chats/conversations/:id', async (request) =>
    getChatConversation(deps, conversationOf(request)),
  );

  app.put<WithId>('/api/chats/conversations/:id', async (request) => {
    const conversation = conversationOf(request);
    const body = parseWireRequest(putConversationRequestSchema, request.body);
    return saveChatConversation(deps, { ...conversation, request: body });
  });

  app.delete<WithId>('/api/chats/conversations/:id', async (request) =>
    deleteChatConversation({ db: deps.db, log: request.log }, conversationOf(request)),
  );

  app.post('/api/chat-key', async (request) => {
    const session = deps.sessions.requireSession(request);
    const sessionToken = readSessionToken(request);
    if (sessionToken === undefined) throw new AuthenticationError('You are not signed in.', { code: 'not_signed_in' });
    return getBrowserChatKey(deps, { userId: session.userId, sessionId: session.sessionId, sessionToken });
  });

  // The browser-chat keys live as long as the session that asked for them: revoke them before the session ends.
  app.addHook('preHandler', async (request) => {
    if (request.method !== 'POST' || request.routeOptions.url !== '/api/auth/logout') return;
    const session = deps.sessions.findSession(request);
    if (session) await revokeBrowserChatKeys(deps, session.sessionId);
  });
}

function parseConversationId(id: string): string {
  if (!conversationIdSchema.safeParse(id).success) {
    throw new InvalidRequestError('A conversation id is 8-64 letters, digits, `_` or `-`.', { param: 'id' });
  }
  return id;
}

const sessionErrors = {
  '401': 'Not signed in, or the session ended',
  '403': 'Missing `x-csrf-token`, or the account is blocked',
};

/** The chat endpoints in the OpenAPI document. */
export const chatApiOperations: readonly AccountApiOperation[] = [
  {
    method: 'get',
    path: '/api/chats/vault',
    operationId: 'getChatVault',
    summary: 'The chat account key, wrapped under the passphrase-derived key (null before the first passphrase)',
    auth: 'session',
    response: {
      status: '200',
      description: 'The vault',
      json: { name: 'ChatVaultAnswer', schema: chatVaultAnswerSchema },
    },
    errors: sessionErrors,
  },
  {
    method: 'put',
    path: '/api/chats/vault',
    operationId: 'putChatVault',
    summary: 'Create the wrapped account key, or replace its wrapping after a passphrase change',
    auth: 'session',
    body: { name: 'PutChatVaultRequest', schema: putChatVaultRequestSchema },
    response: {
      status: '200',
      description: 'Stored',
      json: { name: 'ChatVaultAnswer', schema: chatVaultAnswerSchema },
    },
    errors: { ...sessionErrors, '400': 'Malformed value (`param` names it)', '409': 'Stale `expected_version`' },
  },
  {
    method: 'get',
    path: '/api/chats/conversations',
    operationId: 'listConversations',
    summary: 'The sealed titles and wrapped keys of the account’s conversations, most recently saved first',
    auth: 'session',
    response: {
      status: '200',
      description: 'The conversations',
      json: { name: 'ConversationList', schema: conversationListSchema },
    },
    errors: sessionErrors,
  },
  {
    method: 'get',
    path: '/api/chats/conversations/{id}',
    operationId: 'getConversation',
    summary: 'One conversation with its sealed body',
    auth: 'session',
    pathParameters: ['id'],
    response: {
      status: '200',
      description: 'The conversation',
      json: { name: 'Conversation', schema: conversationSchema },
    },
    errors: { ...sessionErrors, '404': 'No such conversation on this account' },
  },
  {
    method: 'put',
    path: '/api/chats/conversations/{id}',
    operationId: 'putConversation',
    summary: 'Create a conversation (`expected_version` 0) or replace its sealed title and body',
    auth: 'session',
    pathParameters: ['id'],
    body: { name: 'PutConversationRequest', schema: putConversationRequestSchema },
    response: {
      status: '200',
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
  {
    method: 'delete',
    path: '/api/chats/conversations/{id}',
    operationId: 'deleteConversation',
    summary: 'Delete a conversation: its sealed body and wrapped key go in one transaction',
    auth: 'session',
    pathParameters: ['id'],
    response: {
      status: '200',
      description: 'Deleted',
      json: { name: 'DeletedConversation', schema: deletedConversationSchema },
    },
    errors: { ...sessionErrors, '404': 'No such conversation on this account' },
  },
  {
    method: 'post',
    path: '/api/chat-key',
    operationId: 'getBrowserChatKey',
    summary: 'The session’s short-lived API key for the browser chat (revoked at sign-out)',
    auth: 'session',
    response: { status: '200', description: 'The key', json: { name: 'BrowserChatKey', schema: browserChatKeySchema } },
    errors: sessionErrors,
  },
];
