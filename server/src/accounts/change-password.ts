import type { ChangePasswordRequest } from '../../../contract/auth.ts';
import type { Database } from '../db/database.ts';
import { revokeOtherSessions } from '../db/sessions.ts';
import { findUserById, updatePasswordHash } from '../db/users.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import type { Clock } from '../lib/clock.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import { hashPassword, verifyPassword } from './password-hash.ts';
import { checkNewPassword } from './password-policy.ts';
import { throttleAttempt } from './throttle-attempt.ts';

export type ChangePasswordDeps = { db: Database; clock: Clock; rateLimiter: RateLimiter };

/**
 * Sets a new password after checking the current one, and signs out every other session of the account in the
 * same transaction (a stolen session does not outlive the password change).
 */
export async function changePassword(
  deps: ChangePasswordDeps,
  input: { session: { sessionId: string; userId: string }; request: ChangePasswordRequest },
): Promise<void> {
  const { session, request } = input;
  await throttleAttempt(deps, { kind: 'password-change', userId: session.userId });
  const user = await findUserById(deps.db, session.userId);
  if (!user) throw new NotFoundError('This account no longer exists.');
  if (!(await verifyPassword(request.current_password, user.password_hash))) {
    throw new InvalidRequestError('The current password is not correct.', {
      param: 'current_password',
      code: 'incorrect_password',
    });
  }
  checkNewPassword({ password: request.new_password, email: user.email, param: 'new_password' });
  const passwordHash = await hashPassword(request.new_password);
  await deps.db.transaction().execute(async (trx) => {
    await updatePasswordHash(trx, { userId: user.id, passwordHash });
    await revokeOtherSessions(trx, {
      userId: user.id,
      keptSessionId: session.sessionId,
      revokedAt: deps.clock.nowMs(),
    });
  });
}
