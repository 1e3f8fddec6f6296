import { sendPasswordResetLink } from '../accounts/request-password-reset.ts';
import type { AccountLinkDeps } from '../accounts/account-link.ts';
import type { AccountMailDeps } from '../accounts/account-mail.ts';
import { findUserById } from '../db/users.ts';
import { NotFoundError } from '../errors/not-found-error.ts';

export type SendOperatorPasswordResetDeps = AccountLinkDeps & AccountMailDeps;

/** The operator mails an account a reset link: the user sets the password, so the operator never knows it. */
export async function sendOperatorPasswordReset(
  deps: SendOperatorPasswordResetDeps,
  input: { userId: string },
): Promise<void> {
  const user = await findUserById(deps.db, input.userId);
  if (!user) throw new NotFoundError(`There is no account \`${input.userId}\`.`);
  await sendPasswordResetLink(deps, user);
}
