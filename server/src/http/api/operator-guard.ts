import type { FastifyRequest } from 'fastify';
import type { SignedInSession } from '../../accounts/find-session.ts';
import { PermissionDeniedError } from '../../errors/permission-denied-error.ts';
import type { SessionGuard } from '../middleware/session.ts';

/**
 * The signed-in operator of an `/api/operator` request: 401 without a session, 403 for any account whose role is
 * not `admin` (checked before the body is read). The role comes from the database on every request, so a demoted
 * operator loses access at once.
 */
export function requireOperator(sessions: SessionGuard, request: FastifyRequest): SignedInSession {
  const session = sessions.requireSession(request);
  if (session.role !== 'admin') {
    throw new PermissionDeniedError('This is the operator API; your account is not an operator.', {
      code: 'operator_only',
    });
  }
  return session;
}
