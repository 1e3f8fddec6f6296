import { countAccountTokensSince } from '../db/account-tokens.ts';
import { findUserById } from '../db/users.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import { RateLimitError } from '../errors/rate-limit-error.ts';
import { issueAccountLink, type AccountLinkDeps } from './account-link.ts';
import { postAccountMail, type AccountMailDeps } from './account-mail.ts';

export type SendVerificationMailDeps = AccountLinkDeps & AccountMailDeps;

/** Mails to one address an hour at most this many links of a kind: enough for a lost mail, too few to spam with. */
export const linksPerHourPerAccount = 5;

/**
 * Mails a fresh verification link to an unverified account (earlier links stop working). An account already
 * verified gets nothing: there is nothing to confirm.
 */
export async function sendVerificationMail(
  deps: SendVerificationMailDeps,
  input: { userId: string },
): Promise<{ isSent: boolean }> {
  const user = await findUserById(deps.db, input.userId);
  if (!user) throw new NotFoundError('This account no longer exists.');
  if (user.email_verified_at !== null) return { isSent: false };
  const recent = await countAccountTokensSince(deps.db, {
    userId: user.id,
    purpose: 'verify_email',
    sinceMs: deps.clock.nowMs() - 3_600_000,
  });
  if (recent >= linksPerHourPerAccount) {
    throw new RateLimitError('Several links were sent in the last hour. Check your mail, or try again later.', {
      retryAfterSeconds: 3600,
      limitKind: 'requests',
    });
  }
  const url = await issueAccountLink(deps, {
    userId: user.id,
    purpose: 'verify_email',
    ttlMs: deps.accountLinks.verifyLinkTtlMs,
    publicBaseUrl: deps.publicBaseUrl,
  });
  postAccountMail(deps, {
    to: user.email,
    locale: user.locale,
    mail: { kind: 'verify-email', url, ttlHours: Math.round(deps.accountLinks.verifyLinkTtlMs / 3_600_000) },
  });
  return { isSent: true };
}
