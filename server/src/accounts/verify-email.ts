import type { WelcomeBalanceMoment } from '../config/account-config.ts';
import { findUserById, markEmailVerified } from '../db/users.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import { consumeAccountLink, type AccountLinkDeps } from './account-link.ts';
import { creditWelcomeBalance } from '../billing/credit-welcome-balance.ts';

export type VerifyEmailDeps = AccountLinkDeps & {
  welcomeBalance: { amountMicros: number; creditedAt: WelcomeBalanceMoment };
};

/**
 * Uses a verification link: the address is verified and, when the welcome balance waits for verification, it is
 * credited in the same transaction (once per account, by its idempotency key).
 */
export async function verifyEmail(
  deps: VerifyEmailDeps,
  input: { token: string },
): Promise<{ email: string; welcomeCreditedMicros: number }> {
  const { userId } = await consumeAccountLink(deps, { token: input.token, purpose: 'verify_email' });
  const user = await findUserById(deps.db, userId);
  if (!user) throw new NotFoundError('This account no longer exists.');
  const nowMs = deps.clock.nowMs();
  const transactionId = deps.ids.newId('ltx_');
  const isCredited = await deps.db.transaction().execute(async (trx) => {
    const isNewlyVerified = await markEmailVerified(trx, { userId, verifiedAt: nowMs });
    if (!isNewlyVerified || deps.welcomeBalance.creditedAt !== 'verification') return false;
    return creditWelcomeBalance(trx, {
      userId,
      amountMicros: deps.welcomeBalance.amountMicros,
      transactionId,
      nowMs,
    });
  });
  return { email: user.email, welcomeCreditedMicros: isCredited ? deps.welcomeBalance.amountMicros : 0 };
}
