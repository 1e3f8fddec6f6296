import { voidAccountTokens } from '../db/account-tokens.ts';
import { revokeAllSessions } from '../db/sessions.ts';
import { findUserById, markEmailVerified, updatePasswordHash } from '../db/users.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import { PermissionDeniedError } from '../errors/permission-denied-error.ts';
import { consumeAccountLink, type AccountLinkDeps } from './account-link.ts';
import type { PasswordHasher } from './password-hash.ts';
import { checkNewPassword } from './password-policy.ts';

export type ResetPasswordDeps = AccountLinkDeps & { passwords: Pick<PasswordHasher, 'hash'> };

/**
 * Sets a new password with a reset link. The password is checked before the link is used, so a weak one does not
 * spend the link. Every session of the account ends and every other reset link stops working, in one transaction.
 * The link reached the account's mailbox, so it also proves the address: an unverified one becomes verified.
 */
export async function resetPassword(
  deps: ResetPasswordDeps,
  input: { token: string; password: string },
): Promise<void> {
  checkNewPassword({ password: input.password, email: '', param: 'password' });
  const passwordHash = await deps.passwords.hash(input.password);
  const { userId } = await consumeAccountLink(deps, { token: input.token, purpose: 'reset_password' });
  const user = await findUserById(deps.db, userId);
  if (!user) throw new NotFoundError('This account no longer exists.');
  if (user.status !== 'active') {
    throw new PermissionDeniedError('This account is blocked; contact the operator.', { code: 'account_blocked' });
  }
  checkNewPassword({ password: input.password, email: user.email, param: 'password' });
  const nowMs = deps.clock.nowMs();
  await deps.db.transaction().execute(async (trx) => {
    await updatePasswordHash(trx, { userId, passwordHash });
    await revokeAllSessions(trx, { userId, revokedAt: nowMs });
    await voidAccountTokens(trx, { userId, purpose: 'reset_password', usedAt: nowMs });
    await markEmailVerified(trx, { userId, verifiedAt: nowMs });
  });
}
