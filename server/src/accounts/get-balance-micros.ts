import type { CreditHolds } from '../billing/credit-holds.ts';
import type { Database } from '../db/database.ts';
import type { UserRow } from '../db/schema.ts';
import { findUserById } from '../db/users.ts';
import { NotFoundError } from '../errors/not-found-error.ts';

/** What the account API needs of the credit holds: the balance less what calls in flight hold. */
export type HeldCredits = Pick<CreditHolds, 'availableMicros'>;

export type BalanceMicros = { balanceMicros: number; heldMicros: number; availableMicros: number };

/**
 * The ledger balance (from the database) and the part of it held for calls in flight (from the credit holds in
 * memory). Held is reported within `[0, balance]`, so a hold view that is a moment behind a top-up never shows more
 * held than there is.
 */
export async function getBalanceMicros(
  deps: { db: Database; creditHolds: HeldCredits },
  userId: string,
): Promise<BalanceMicros & { user: UserRow }> {
  const user = await findUserById(deps.db, userId);
  if (!user) throw new NotFoundError('This account no longer exists.');
  const balanceMicros = user.balance_micros;
  const heldMicros = Math.min(
    Math.max(0, balanceMicros - (await deps.creditHolds.availableMicros(userId))),
    Math.max(0, balanceMicros),
  );
  return { user, balanceMicros, heldMicros, availableMicros: balanceMicros - heldMicros };
}
