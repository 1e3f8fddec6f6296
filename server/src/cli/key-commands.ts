import { issueApiKey } from '../accounts/issue-api-key.ts';
import { listAccountApiKeys } from '../accounts/list-account-api-keys.ts';
import { revokeApiKey } from '../db/api-keys.ts';
import { bumpCacheVersion } from '../db/cache-versions.ts';
import { findUserByEmail } from '../db/users.ts';
import { parseOptions, UsageError, type CliContext } from './cli-context.ts';

/** `key create --email E [--name N]` | `key list --email E` | `key revoke --email E --id ID` */
export async function runKeyCommand(context: CliContext, action: string | undefined, args: readonly string[]) {
  switch (action) {
    case 'create':
      return createKey(context, args);
    case 'list':
      return listKeys(context, args);
    case 'revoke':
      return revokeKey(context, args);
    default:
      throw new UsageError(`unknown key command "${action ?? ''}" (expected: create, list, revoke)`);
  }
}

/** Prints the new key once. */
async function createKey(context: CliContext, args: readonly string[]) {
  const options = parseOptions(args, { email: { type: 'string', required: true }, name: { type: 'string' } });
  const user = await findUser(context, options.email ?? '');
  const issued = await issueApiKey(context, { userId: user.id, name: options.name ?? 'cli' });
  context.print(issued.key);
  process.stderr.write(`key ${issued.id} for ${user.email}: shown once, store it now\n`);
}

/** The account's keys that are not revoked: id, name, hint and dates; never a secret (only hashes are kept). */
async function listKeys(context: CliContext, args: readonly string[]) {
  const options = parseOptions(args, { email: { type: 'string', required: true } });
  const user = await findUser(context, options.email ?? '');
  for (const key of (await listAccountApiKeys(context, user.id)).data) {
    context.print(
      [key.id, key.name, `${key.prefix}…${key.last_four}`, key.created_at, key.expires_at ?? 'no expiry'].join('\t'),
    );
  }
}

/** Running nodes stop accepting the key within a second (the `api_keys` cache version). */
async function revokeKey(context: CliContext, args: readonly string[]) {
  const options = parseOptions(args, {
    email: { type: 'string', required: true },
    id: { type: 'string', required: true },
  });
  const user = await findUser(context, options.email ?? '');
  const keyId = options.id ?? '';
  const isRevoked = await revokeApiKey(context.db, { userId: user.id, keyId, revokedAt: context.clock.nowMs() });
  if (!isRevoked) throw new UsageError(`no live key ${keyId} on ${user.email}`);
  await bumpCacheVersion(context.db, 'api_keys');
  context.print(`revoked ${keyId}`);
}

async function findUser(context: CliContext, email: string) {
  const user = await findUserByEmail(context.db, email.trim().toLowerCase());
  if (!user) throw new UsageError(`no user with e-mail ${email}`);
  return user;
}
