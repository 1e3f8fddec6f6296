import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { changePasswordRequestSchema, credentialsSchema } from '../../../../contract/auth.ts';
import { changePassword, type ChangePasswordDeps } from '../../accounts/change-password.ts';
import { getAccount, type GetAccountDeps } from '../../accounts/get-account.ts';
import { registerAccount, type RegisterAccountDeps } from '../../accounts/register-account.ts';
import { signIn, type SignInDeps } from '../../accounts/sign-in.ts';
import { signOut } from '../../accounts/sign-out.ts';
import type { StartedSession } from '../../accounts/start-session.ts';
import { parseWireRequest } from '../../openai-api/parse-request.ts';
import type { SessionGuard } from '../middleware/session.ts';
import { clearSessionCookie, writeSessionCookie } from '../session-cookie.ts';

export type AuthRouteDeps = RegisterAccountDeps &
  SignInDeps &
  ChangePasswordDeps &
  GetAccountDeps & { sessions: SessionGuard; publicBaseUrl: string };

/** Register, sign in and out, the signed-in account, and password change. */
export function registerAuthRoutes(app: FastifyInstance, deps: AuthRouteDeps): void {
  // `Secure` when this request came over TLS: directly, or through a proxy that TRUST_PROXY believes
  // (`X-Forwarded-Proto`), or when the public address is https (a TLS proxy the operator did not declare).
  const isSecure = (request: FastifyRequest) =>
    request.protocol === 'https' || deps.publicBaseUrl.startsWith('https://');
  const startCookie = (request: FastifyRequest, reply: FastifyReply, session: StartedSession) =>
    writeSessionCookie(reply, { ...session, nowMs: deps.clock.nowMs(), isSecure: isSecure(request) });

  app.post('/api/auth/register', async (request, reply) => {
    const credentials = parseWireRequest(credentialsSchema, request.body);
    const { session, account } = await registerAccount(deps, { credentials, clientIp: request.ip });
    startCookie(request, reply, session);
    return reply.status(201).send(account);
  });

  app.post('/api/auth/login', async (request, reply) => {
    const credentials = parseWireRequest(credentialsSchema, request.body);
    const { session, account } = await signIn(deps, { credentials, clientIp: request.ip });
    startCookie(request, reply, session);
    return reply.send(account);
  });

  app.post('/api/auth/logout', async (request, reply) => {
    const session = deps.sessions.findSession(request);
    if (session) await signOut(deps, session.sessionId);
    clearSessionCookie(reply, { isSecure: isSecure(request) });
    return reply.status(204).send();
  });

  app.get('/api/me', async (request) => getAccount(deps, deps.sessions.requireSession(request)));

  app.post('/api/me/password', async (request, reply) => {
    const session = deps.sessions.requireSession(request);
    const body = parseWireRequest(changePasswordRequestSchema, request.body);
    await changePassword(deps, { session, request: body });
    return reply.status(204).send();
  });
}
