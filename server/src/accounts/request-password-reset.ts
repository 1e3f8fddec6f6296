import { findUserByEmail } from '../db/users.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import { issueAccountLink, type AccountLinkDeps } from './account-link.ts';
import { postAccountMail, type AccountMailDeps } from './account-mail.ts';
import { checkSignUpChallenge, type ChallengeAnswer, type SignUpChallengeDeps } from './sign-up-challenge.ts';
import { throttleAttempt } from './throttle-attempt.ts';

export type RequestPasswordResetDeps = AccountLinkDeps &
  AccountMailDeps &
  SignUpChallengeDeps & { rateLimiter: RateLimiter };

/**
 * "Forgot password": mails a single-use reset link when an active account has this address. The caller gets the same
 * answer either way (the mail is posted, not awaited, so the time hardly differs either), so the form cannot be used
 * to learn which addresses have accounts. Throttled per client address and per e-mail, behind the proof of work.
 */
export async function requestPasswordReset(
  deps: RequestPasswordResetDeps,
  input: { email: string; clientIp: string; altcha: ChallengeAnswer | undefined },
): Promise<void> {
  const email = input.email.trim().toLowerCase();
  await throttleAttempt(deps, { kind: 'reset-ip', clientIp: input.clientIp });
  await checkSignUpChallenge(deps, input.altcha);
  await throttleAttempt(deps, { kind: 'reset-email', email });
  const user = await findUserByEmail(deps.db, email);
  if (!user || user.status !== 'active') return;
  await sendPasswordResetLink(deps, user);
}

/** Issues a reset link (earlier ones stop working) and mails it: the user's request, or the operator's. */
export async function sendPasswordResetLink(
  deps: AccountLinkDeps & AccountMailDeps,
  user: { id: string; email: string; locale: string },
): Promise<void> {
  const url = await issueAccountLink(deps, {
    userId: user.id,
    purpose: 'reset_password',
    ttlMs: deps.accountLinks.resetLinkTtlMs,
    publicBaseUrl: deps.publicBaseUrl,
  });
  postAccountMail(deps, {
    to: user.email,
    locale: user.locale,
    mail: { kind: 'reset-password', url, ttlMinutes: Math.round(deps.accountLinks.resetLinkTtlMs / 60_000) },
  });
}
