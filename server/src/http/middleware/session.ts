import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findSession, type SignedInSession } from '../../accounts/find-session.ts';
import type { Database } from '../../db/database.ts';
import { AuthenticationError } from '../../errors/authentication-error.ts';
import { PermissionDeniedError } from '../../errors/permission-denied-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { readSessionToken } from '../session-cookie.ts';

export type SessionDeps = { db: Database; clock: Clock };

/** The session of a request under `/api`, as the session middleware found it. */
export type SessionGuard = {
  /** The signed-in session, or 401 when there is none (or it ended), 403 when the account is blocked. */
  requireSession: (request: FastifyRequest) => SignedInSession;
  /** The session, if a live one came with the request. */
  findSession: (request: FastifyRequest) => SignedInSession | undefined;
};

const safeMethods: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Reads the session cookie of every `/api` request. A state-changing request that carries a live session must also
 * carry `x-csrf-token` equal to the session's CSRF token, or it is refused with 403 before its body is read: a
 * cross-site page can make the browser send the cookie, but cannot read the token to send the header.
 */
export function registerSessionMiddleware(app: FastifyInstance, deps: SessionDeps): SessionGuard {
  const sessions = new WeakMap<FastifyRequest, SignedInSession>();
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    const token = readSessionToken(request);
    if (token === undefined) return;
    reply.header('cache-control', 'no-store');
    const session = await findSession(deps, token);
    if (!session) return;
    if (!safeMethods.has(request.method) && !isCsrfTokenValid(request, session)) {
      throw new PermissionDeniedError(
        'Missing or wrong `x-csrf-token` header: send the `csrf_token` that sign-in and GET /api/me return.',
        { code: 'csrf_token_invalid' },
      );
    }
    sessions.set(request, session);
  });
  return {
    findSession: (request) => sessions.get(request),
    requireSession: (request) => {
      const session = sessions.get(request);
      if (!session) {
        throw new AuthenticationError('You are not signed in, or your session has ended. Sign in again.', {
          code: 'not_signed_in',
        });
      }
      if (session.isUserBlocked) {
        throw new PermissionDeniedError('This account is blocked; contact the operator.', { code: 'account_blocked' });
      }
      return session;
    },
  };
}

function isCsrfTokenValid(request: FastifyRequest, session: SignedInSession): boolean {
  const header = request.headers['x-csrf-token'];
  if (typeof header !== 'string') return false;
  const sent = Buffer.from(header);
  const expected = Buffer.from(session.csrfToken);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}
