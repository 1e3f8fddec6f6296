import { createUser } from '../accounts/create-user.ts';
import { parseUsdToMicros } from '../lib/money.ts';
import { parseOptions, UsageError, type CliContext } from './cli-context.ts';

/** `user create --email E --password P [--admin] [--balance-usd N]` */
export async function runUserCommand(context: CliContext, action: string | undefined, args: readonly string[]) {
  if (action !== 'create') throw new UsageError(`unknown user command "${action ?? ''}" (expected: create)`);
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
