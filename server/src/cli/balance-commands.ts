import { postLedgerTransaction, userLedgerAccount } from '../db/ledger.ts';
import { findUserByEmail, findUserById } from '../db/users.ts';
import { formatUsd, parseUsdToMicros } from '../lib/money.ts';
import { parseOptions, UsageError, type CliContext } from './cli-context.ts';
import { recordCliAction } from './audit-commands.ts';

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
  const balanceBefore = user.balance_micros;
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
  if (isPosted) {
    await recordCliAction(context, {
      action: 'adjustBalance',
      target: { kind: 'user', id: user.id },
      accountId: user.id,
      before: { balance_micros: balanceBefore },
      after: {
        balance_micros: balance,
        amount_micros: amountMicros,
        reason: options.reason,
        idempotency_key: idempotencyKey,
      },
    });
  }
  context.print(
    isPosted
      ? `credited ${formatUsd(amountMicros)} USD to ${user.email}; balance ${formatUsd(balance)} USD`
      : `already applied (${idempotencyKey}); balance ${formatUsd(balance)} USD`,
  );
}
