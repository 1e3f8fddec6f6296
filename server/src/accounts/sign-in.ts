import type { Credentials, Me } from '../../../contract/auth.ts';
import { findUserByEmail } from '../db/users.ts';
import { AuthenticationError } from '../errors/authentication-error.ts';
import { PermissionDeniedError } from '../errors/permission-denied-error.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import { getAccount, type GetAccountDeps } from './get-account.ts';
import type { PasswordHasher } from './password-hash.ts';
import { startSession, type StartSessionDeps, type StartedSession } from './start-session.ts';
import { backOffSignIn, throttleAttempt } from './throttle-attempt.ts';

export type SignInDeps = StartSessionDeps &
  GetAccountDeps & {
    rateLimiter: RateLimiter;
    passwords: Pick<PasswordHasher, 'verify'>;
    /** The global back-off's wait (a timer in production). */
    wait: (ms: number) => Promise<void>;
  };

/**
 * An Argon2id hash (same parameters as real ones) of a random password nobody knows. An unknown e-mail is checked
 * against it, so that it costs the same time as a wrong password and the two cannot be told apart.
 */
const dummyPasswordHash =
  '$argon2id$v=19$m=19456,t=2,p=1$6x15bdbxzB6UDvYQH--XyQ$FBAjI1Bn0jlJObAZV4dlBWuvIhqpfrS24ohqDoWckMM';

/**
 * E-mail and password → a new session; one answer for every failure. Throttled per client address and per (address,
 * e-mail) pair, which refuse with 429, and slowed per account across all addresses (`backOffSignIn`), which never
 * refuses: guesses from one address cannot lock the owner out from another.
 */
export async function signIn(
  deps: SignInDeps,
  input: { credentials: Credentials; clientIp: string },
): Promise<{ session: StartedSession; account: Me }> {
  const email = input.credentials.email.trim().toLowerCase();
  await throttleAttempt(deps, { kind: 'login-ip', clientIp: input.clientIp });
  await throttleAttempt(deps, { kind: 'login-address-email', clientIp: input.clientIp, email });
  const backOff = await backOffSignIn(deps, email);
  const user = await findUserByEmail(deps.db, email);
  const isPasswordRight = await deps.passwords.verify(
    input.credentials.password,
    user?.password_hash ?? dummyPasswordHash,
  );
  if (!user || !isPasswordRight) {
    throw new AuthenticationError('Incorrect e-mail or password.', { code: 'invalid_credentials' });
  }
  if (user.status === 'blocked') {
    throw new PermissionDeniedError('This account is blocked; contact the operator.', { code: 'account_blocked' });
  }
  await backOff.giveBack();
  const session = await startSession(deps, user.id);
  return { session, account: await getAccount(deps, { userId: user.id, csrfToken: session.csrfToken }) };
}
