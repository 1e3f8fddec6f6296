import { issueApiKey } from '../accounts/issue-api-key.ts';
import { findUserByEmail } from '../db/users.ts';
import { parseOptions, UsageError, type CliContext } from './cli-context.ts';

/** `key create --email E [--name N]`: prints the new key once. */
export async function runKeyCommand(context: CliContext, action: string | undefined, args: readonly string[]) {
  if (action !== 'create') throw new UsageError(`unknown key command "${action ?? ''}" (expected: create)`);
  const options = parseOptions(args, { email: { type: 'string', required: true }, name: { type: 'string' } });
  const user = await findUserByEmail(context.db, (options.email ?? '').trim().toLowerCase());
  if (!user) throw new UsageError(`no user with e-mail ${options.email}`);
  const issued = await issueApiKey(context, { userId: user.id, name: options.name ?? 'cli' });
  context.print(issued.key);
  process.stderr.write(`key ${issued.id} for ${user.email}: shown once, store it now\n`);
}
