import { conversationIdSchema } from '../../../../contract/chats.ts';
import { getBrowserChatKey, type BrowserChatKeyDeps } from '../../chats/browser-chat-key.ts';
import {
  deleteChatConversation,
  getChatConversation,
  listChatConversations,
  saveChatConversation,
} from '../../chats/chat-conversations.ts';
import { getChatVault, saveChatVault } from '../../chats/chat-vault.ts';
import { AuthenticationError } from '../../errors/authentication-error.ts';
import { InvalidRequestError } from '../../errors/invalid-request-error.ts';
import { readSessionToken } from '../session-cookie.ts';
import type { ApiHandlers } from './endpoint-handler.ts';

export type ChatHandlerDeps = BrowserChatKeyDeps;

type ChatHandlers = Pick<
  ApiHandlers,
  | 'getChatVault'
  | 'putChatVault'
  | 'listConversations'
  | 'getConversation'
  | 'putConversation'
  | 'deleteConversation'
  | 'getBrowserChatKey'
>;

/**
 * The encrypted browser chat's storage (the wrapped account key and sealed conversations, which the server cannot
 * read) and the session's browser-chat API key; signing out revokes that key (`createAuthHandlers`).
 */
export function createChatHandlers(deps: ChatHandlerDeps): ChatHandlers {
  return {
    getChatVault: async ({ session }) => getChatVault(deps, session.userId),
    putChatVault: async ({ session, body }) => saveChatVault(deps, { userId: session.userId, request: body }),
    listConversations: async ({ session }) => listChatConversations(deps, session.userId),
    getConversation: async ({ session, params }) =>
      getChatConversation(deps, { userId: session.userId, id: parseConversationId(params.id) }),
    putConversation: async ({ session, params, body }) =>
      saveChatConversation(deps, { userId: session.userId, id: parseConversationId(params.id), request: body }),
    deleteConversation: async ({ session, params, request }) =>
      deleteChatConversation(
        { db: deps.db, log: request.log },
        { userId: session.userId, id: parseConversationId(params.id) },
      ),
    getBrowserChatKey: async ({ session, request }) => {
      const sessionToken = readSessionToken(request);
      if (sessionToken === undefined) {
        throw new AuthenticationError('You are not signed in.', { code: 'not_signed_in' });
      }
      return getBrowserChatKey(deps, { userId: session.userId, sessionId: session.sessionId, sessionToken });
    },
  };
}

function parseConversationId(id: string): string {
  if (!conversationIdSchema.safeParse(id).success) {
    throw new InvalidRequestError('A conversation id is 8-64 letters, digits, `_` or `-`.', { param: 'id' });
  }
  return id;
}
