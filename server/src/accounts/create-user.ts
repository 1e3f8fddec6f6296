import { bumpCacheVersion } from '../db/cache-versions.ts';
import type { Database } from '../db/database.ts';
import { userLedgerAccount, writeLedgerTransaction } from '../db/ledger.ts';
import { findUserByEmail, insertUser } from '../db/users.ts';
import type { UserRow } from '../db/schema.ts';
import { ConflictError } from '../errors/conflict-error.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import type { Clock } from '../lib/clock.ts';
import type { IdGenerator } from '../lib/ids.ts';
import { hashPassword } from './password-hash.ts';

export type CreateUserDeps = { db: Database; clock: Clock; ids: IdGenerator };

export type CreateUserInput = {
  email: string;
  password: string;
  role: UserRow['role'];
  /** Credited through the ledger as the welcome balance (idempotent per user). */
  welcomeBalanceMicros: number;
};

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const minimumPasswordLength = 10;

/**
 * Creates an account with e-mail and password only, and credits its welcome balance through the ledger, in one
 * database transaction: an account never exists without its welcome credit, nor a credit without its account.
 */
export async function createUser(
  deps: CreateUserDeps,
  input: CreateUserInput,
): Promise<Omit<UserRow, 'balance_version'>> {
  const email = input.email.trim().toLowerCase();
  if (!emailPattern.test(email) || email.length > 254) {
    throw new InvalidRequestError('The e-mail address is not valid.', { param: 'email' });
  }
  if (input.password.length < minimumPasswordLength) {
    throw new InvalidRequestError(`The password must have at least ${minimumPasswordLength} characters.`, {
      param: 'password',
    });
  }
  if (await findUserByEmail(deps.db, email)) {
    throw new ConflictError('An account with this e-mail already exists.', { param: 'email', code: 'email_taken' });
  }
  const user = {
    id: deps.ids.newId('usr_'),
    email,
    password_hash: await hashPassword(input.password),
    role: input.role,
    created_at: deps.clock.nowMs(),
  };
  const welcomeTransactionId = deps.ids.newId('ltx_');
  await deps.db.transaction().execute(async (trx) => {
    await insertUser(trx, user);
    if (input.welcomeBalanceMicros <= 0) return;
    await writeLedgerTransaction(trx, {
      id: welcomeTransactionId,
      idempotencyKey: `welcome:${user.id}`,
      kind: 'welcome',
      reason: 'welcome balance',
      createdAt: user.created_at,
      entries: [
        { account: userLedgerAccount(user.id), amountMicros: input.welcomeBalanceMicros },
        { account: 'system:welcome-bonus', amountMicros: -input.welcomeBalanceMicros },
      ],
    });
    // Like every ledger post that is not a node's own settlement: nodes reload the balances they cache.
    await bumpCacheVersion(trx, 'balances');
  });
  return { ...user, status: 'active', balance_micros: input.welcomeBalanceMicros };
}
