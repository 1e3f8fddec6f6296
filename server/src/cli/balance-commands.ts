import { postLedgerTransaction, userLedgerAccount } from '../db/ledger.ts';
import { findUserByEmail, findUserById } from '../db/users.ts';
import { formatUsd, parseUsdToMicros } from '../lib/money.ts';
import { parseOptions, UsageError, type CliContext } from './cli-context.ts';

/** `balance credit --email E --usd N --reason R [--idempotency-key K]`: an operator adjustment through the ledger. */
export async function runBalanceCommand(context: CliContext, action: string | undefined, args: readonly string[]) {
  if (action !== 'credit') throw new UsageError(`unknown balance command "${action ?? ''}" (expected: credit)`);
  const options = parseOptions(args, {
    email: { type: 'string', required: true },
    usd: { type: 'string', required: true },
    reason: { type: 'string', required: true },
    'idempotency-key': { type: 'string' },
  });
  const amountMicros = parseUsdToMicros(options.usd ?? '');
  if (amountMicros === undefined || amountMicros <= 0) {
    throw new UsageError(`--usd must be a positive amount with at most 6 decimals, got "${options.usd}"`);
  }
  const user = await findUserByEmail(context.db, (options.email ?? '').trim().toLowerCase());
  if (!user) throw new UsageError(`no user with e-mail ${options.email}`);
  const idempotencyKey = `adjustment:${options['idempotency-key'] ?? context.ids.newId('cli_')}`;
  const isPosted = await postLedgerTransaction(context.db, {
    id: context.ids.newId('ltx_'),
    idempotencyKey,
    kind: 'adjustment',
    reason: options.reason ?? '',
    createdAt: context.clock.nowMs(),
    entries: [
      { account: userLedgerAccount(user.id), amountMicros },
      { account: 'system:adjustments', amountMicros: -amountMicros },
    ],
  });
  const balance = (await findUserById(context.db, user.id))?.balance_micros ?? 0;
  context.print(
    isPosted
      ? `credited ${formatUsd(amountMicros)} USD to ${user.email}; balance ${formatUsd(balance)} USD`
      : `already applied (${idempotencyKey}); balance ${formatUsd(balance)} USD`,
  );
}
