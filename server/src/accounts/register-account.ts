import type { Credentials, Me } from '../../../contract/auth.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { ConflictError } from '../errors/conflict-error.ts';
import { createUser, type CreateUserDeps } from './create-user.ts';
import { getAccount, type GetAccountDeps } from './get-account.ts';
import { checkNewPassword } from './password-policy.ts';
import { startSession, type StartedSession } from './start-session.ts';
import { throttleAttempt } from './throttle-attempt.ts';

export type RegisterAccountDeps = CreateUserDeps &
  GetAccountDeps & { rateLimiter: RateLimiter; welcomeBalanceMicros: number };

/** A new account signed in at once: e-mail and password only, with the welcome balance credited via the ledger. */
export async function registerAccount(
  deps: RegisterAccountDeps,
  input: { credentials: Credentials; clientIp: string },
): Promise<{ session: StartedSession; account: Me }> {
  const { email, password } = input.credentials;
  checkNewPassword({ password, email, param: 'password' });
  await throttleAttempt(deps, { kind: 'register-ip', clientIp: input.clientIp });
  let userId: string;
  try {
    const user = await createUser(deps, {
      email,
      password,
      role: 'user',
      welcomeBalanceMicros: deps.welcomeBalanceMicros,
    });
    userId = user.id;
  } catch (error) {
    // Two registrations of one e-mail at once: the second loses on the unique index, not on the earlier check.
    if (isUniqueViolation(error)) {
      throw new ConflictError('An account with this e-mail already exists.', { param: 'email', code: 'email_taken' });
    }
    throw error;
  }
  const session = await startSession(deps, userId);
  return { session, account: await getAccount(deps, { userId, csrfToken: session.csrfToken }) };
}
