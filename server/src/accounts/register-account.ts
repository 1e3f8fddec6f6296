import type { Me, RegisterRequest } from '../../../contract/auth.ts';
import type { WelcomeBalanceMoment } from '../config/account-config.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { ConflictError } from '../errors/conflict-error.ts';
import { createUser, type CreateUserDeps } from './create-user.ts';
import { getAccount, type GetAccountDeps } from './get-account.ts';
import { checkNewPassword } from './password-policy.ts';
import { sendVerificationMail, type SendVerificationMailDeps } from './send-verification-mail.ts';
import { checkSignUpChallenge, type SignUpChallengeDeps } from './sign-up-challenge.ts';
import { checkSignUpLimits, type SignUpLimitDeps } from './sign-up-limits.ts';
import { startSession, type StartedSession } from './start-session.ts';
import { throttleAttempt } from './throttle-attempt.ts';

export type RegisterAccountDeps = CreateUserDeps &
  GetAccountDeps &
  SendVerificationMailDeps &
  SignUpChallengeDeps &
  SignUpLimitDeps & {
    rateLimiter: RateLimiter;
    welcomeBalance: { amountMicros: number; creditedAt: WelcomeBalanceMoment };
  };

/**
 * A new account signed in at once, with e-mail and password only, after the abuse checks (proof of work, sign-ups per
 * address and network, disposable domains). A verification link is mailed; the welcome balance is credited through
 * the ledger now or later, as configured (at verification, or with the first payment).
 */
export async function registerAccount(
  deps: RegisterAccountDeps,
  input: { request: RegisterRequest; clientIp: string },
): Promise<{ session: StartedSession; account: Me }> {
  const { email, password } = input.request;
  checkNewPassword({ password, email, param: 'password' });
  await throttleAttempt(deps, { kind: 'register-ip', clientIp: input.clientIp });
  await checkSignUpChallenge(deps, input.request.altcha);
  const origin = await checkSignUpLimits(deps, { email: email.trim().toLowerCase(), clientIp: input.clientIp });
  let userId: string;
  try {
    const user = await createUser(deps, {
      email,
      password,
      role: 'user',
      welcomeBalanceMicros: deps.welcomeBalance.creditedAt === 'sign-up' ? deps.welcomeBalance.amountMicros : 0,
      signUp: { locale: input.request.locale ?? 'en', ...origin },
    });
    userId = user.id;
  } catch (error) {
    // Two registrations of one e-mail at once: the second loses on the unique index, not on the earlier check.
    if (isUniqueViolation(error)) {
      throw new ConflictError('An account with this e-mail already exists.', { param: 'email', code: 'email_taken' });
    }
    throw error;
  }
  await sendVerificationMail(deps, { userId });
  const session = await startSession(deps, userId);
  return { session, account: await getAccount(deps, { userId, csrfToken: session.csrfToken }) };
}
