import { recordSecurityEvent } from '../audit/record-audit.ts';
import { deleteTotpCredential } from '../db/totp-credentials.ts';
import { findUserByEmail } from '../db/users.ts';
import { parseOptions, UsageError, type CliContext } from './cli-context.ts';

/**
 * `operator reset-totp --email E`: removes an operator's second factor (a lost phone and no recovery code left). Their
 * sessions must pass the second factor again; with `REQUIRE_OPERATOR_TOTP` on, they enrol anew at their next sign-in.
 */
export async function runOperatorCommand(context: CliContext, action: string | undefined, args: readonly string[]) {
  if (action !== 'reset-totp')
    throw new UsageError(`unknown operator command "${action ?? ''}" (expected: reset-totp)`);
  const options = parseOptions(args, { email: { type: 'string', required: true } });
  const user = await findUserByEmail(context.db, (options.email ?? '').trim().toLowerCase());
  if (!user) throw new UsageError(`no user with e-mail ${options.email}`);
  if (!(await deleteTotpCredential(context.db, user.id))) {
    context.print(`${user.email} has no second factor; nothing to reset`);
    return;
  }
  await recordSecurityEvent(context, { accountId: user.id, action: 'totp_reset', actor: 'cli', clientAddress: null });
  context.print(`second factor of ${user.email} removed; they set up a new one at their next sign-in`);
}
