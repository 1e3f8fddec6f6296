import { createUser } from '../accounts/create-user.ts';
import { hashPassword } from '../accounts/password-hash.ts';
import { checkNewPassword } from '../accounts/password-policy.ts';
import { bumpCacheVersion } from '../db/cache-versions.ts';
import { revokeAllSessions } from '../db/sessions.ts';
import { findUserByEmail, listUsers, updatePasswordHash, updateUserStatus } from '../db/users.ts';
import type { UserRow } from '../db/schema.ts';
import { microsToUsd, parseUsdToMicros } from '../lib/money.ts';
import { parseOptions, UsageError, type CliContext } from './cli-context.ts';

type UserAction = (context: CliContext, args: readonly string[]) => Promise<void>;

const userActions: Record<string, UserAction> = {
  create: createUserAction,
  list: listUsersAction,
  'set-password': setPasswordAction,
  block: (context, args) => setStatusAction(context, args, 'blocked'),
  unblock: (context, args) => setStatusAction(context, args, 'active'),
};

/** `user create | list | set-password | block | unblock` (see the usage text in main.ts). */
export async function runUserCommand(context: CliContext, action: string | undefined, args: readonly string[]) {
  const run = action === undefined ? undefined : userActions[action];
  if (!run) {
    throw new UsageError(`unknown user command "${action ?? ''}" (expected: ${Object.keys(userActions).join(', ')})`);
  }
  await run(context, args);
}

/** `user create --email E --password P [--admin] [--balance-usd N]` */
async function createUserAction(context: CliContext, args: readonly string[]) {
  const options = parseOptions(args, {
    email: { type: 'string', required: true },
    password: { type: 'string', required: true },
    admin: { type: 'boolean' },
    'balance-usd': { type: 'string' },
  });
  const balanceText = options['balance-usd'];
  const welcomeBalanceMicros =
    balanceText === undefined ? context.config.welcomeBalanceMicros : parseUsdToMicros(balanceText);
  if (welcomeBalanceMicros === undefined || welcomeBalanceMicros < 0) {
    throw new UsageError(`--balance-usd must be a non-negative amount with at most 6 decimals, got "${balanceText}"`);
  }
  const user = await createUser(context, {
    email: options.email ?? '',
    password: options.password ?? '',
    role: options.admin ? 'admin' : 'user',
    welcomeBalanceMicros,
  });
  context.print(
    `created ${user.role} ${user.email} (id ${user.id}), balance ${(welcomeBalanceMicros / 1e6).toFixed(6)} USD`,
  );
}

/** `user list [--limit N]`: newest first, one tab-separated line each. */
async function listUsersAction(context: CliContext, args: readonly string[]) {
  const options = parseOptions(args, { limit: { type: 'string' } });
  const limit = options.limit === undefined ? 100 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
    throw new UsageError(`--limit must be a whole number from 1 to 10000, got "${options.limit}"`);
  }
  for (const user of await listUsers(context.db, { limit })) {
    const verified = user.email_verified_at === null ? 'unverified' : 'verified';
    const balance = microsToUsd(user.balance_micros).toFixed(6);
    context.print([user.id, user.email, user.role, user.status, verified, `${balance} USD`].join('\t'));
  }
}

/** `user set-password --email E --password P`: for an operator locked out with no mail; every session ends. */
async function setPasswordAction(context: CliContext, args: readonly string[]) {
  const options = parseOptions(args, {
    email: { type: 'string', required: true },
    password: { type: 'string', required: true },
  });
  const user = await findUserOrFail(context, options.email ?? '');
  checkNewPassword({ password: options.password ?? '', email: user.email, param: 'password' });
  const passwordHash = await hashPassword(options.password ?? '');
  const ended = await context.db.transaction().execute(async (trx) => {
    await updatePasswordHash(trx, { userId: user.id, passwordHash });
    return revokeAllSessions(trx, { userId: user.id, revokedAt: context.clock.nowMs() });
  });
  context.print(`password set for ${user.email}; ${ended} session(s) ended`);
}

/** `user block --email E` / `user unblock --email E`: running nodes stop (or restart) its keys within a second. */
async function setStatusAction(context: CliContext, args: readonly string[], status: UserRow['status']) {
  const options = parseOptions(args, { email: { type: 'string', required: true } });
  const user = await findUserOrFail(context, options.email ?? '');
  await updateUserStatus(context.db, { userId: user.id, status });
  await bumpCacheVersion(context.db, 'api_keys');
  context.print(`${user.email} is ${status}`);
}

async function findUserOrFail(context: CliContext, email: string): Promise<UserRow> {
  const user = await findUserByEmail(context.db, email.trim().toLowerCase());
  if (!user) throw new UsageError(`no user with e-mail ${email}`);
  return user;
}
