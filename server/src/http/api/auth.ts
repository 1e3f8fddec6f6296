import type { FastifyReply, FastifyRequest } from 'fastify';
import { changePassword, type ChangePasswordDeps } from '../../accounts/change-password.ts';
import { getAccount, type GetAccountDeps } from '../../accounts/get-account.ts';
import { registerAccount, type RegisterAccountDeps } from '../../accounts/register-account.ts';
import { signIn, type SignInDeps } from '../../accounts/sign-in.ts';
import { signOut } from '../../accounts/sign-out.ts';
import type { StartedSession } from '../../accounts/start-session.ts';
import { revokeBrowserChatKeys, type BrowserChatKeyDeps } from '../../chats/browser-chat-key.ts';
import { clearSessionCookie, writeSessionCookie } from '../session-cookie.ts';
import { recordSecurityEvent, type RecordAuditDeps } from '../../audit/record-audit.ts';
import type { ApiHandlers } from './endpoint-handler.ts';

export type AuthHandlerDeps = RegisterAccountDeps &
  SignInDeps &
  ChangePasswordDeps &
  GetAccountDeps &
  BrowserChatKeyDeps &
  RecordAuditDeps & { publicBaseUrl: string };

/** Register, sign in and out, the signed-in account, and password change. */
export function createAuthHandlers(
  deps: AuthHandlerDeps,
): Pick<ApiHandlers, 'register' | 'login' | 'logout' | 'getMe' | 'changePassword'> {
  // `Secure` when this request came over TLS: directly, or through a proxy that TRUST_PROXY believes
  // (`X-Forwarded-Proto`), or when the public address is https (a TLS proxy the operator did not declare).
  const isSecure = (request: FastifyRequest) =>
    request.protocol === 'https' || deps.publicBaseUrl.startsWith('https://');
  const startCookie = (request: FastifyRequest, reply: FastifyReply, session: StartedSession) =>
    writeSessionCookie(reply, { ...session, nowMs: deps.clock.nowMs(), isSecure: isSecure(request) });

  return {
    register: async ({ request, reply, body }) => {
      const { session, account } = await registerAccount(deps, { request: body, clientIp: request.ip });
      await recordSecurityEvent(deps, {
        accountId: account.id,
        action: 'account_registered',
        clientAddress: request.ip,
      });
      startCookie(request, reply, session);
      return account;
    },
    login: async ({ request, reply, body }) => {
      const { session, account } = await signIn(deps, { credentials: body, clientIp: request.ip });
      await recordSecurityEvent(deps, { accountId: account.id, action: 'signed_in', clientAddress: request.ip });
      startCookie(request, reply, session);
      return account;
    },
    logout: async ({ request, reply, session }) => {
      if (session) {
        // The browser-chat keys live as long as the session that asked for them: revoke them before it ends.
        await revokeBrowserChatKeys(deps, session.sessionId);
        await signOut(deps, session.sessionId);
      }
      clearSessionCookie(reply, { isSecure: isSecure(request) });
    },
    getMe: async ({ session }) => getAccount(deps, session),
    changePassword: async ({ request, session, body }) => {
      await changePassword(deps, { session, request: body });
      await recordSecurityEvent(deps, {
        accountId: session.userId,
        action: 'password_changed',
        clientAddress: request.ip,
      });
    },
  };
}
