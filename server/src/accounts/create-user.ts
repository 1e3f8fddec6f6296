import type { Database } from '../db/database.ts';
import { findUserByEmail, insertUser } from '../db/users.ts';
import type { UserRow } from '../db/schema.ts';
import { ConflictError } from '../errors/conflict-error.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import type { Clock } from '../lib/clock.ts';
import type { IdGenerator } from '../lib/ids.ts';
import { creditWelcomeBalance } from '../billing/credit-welcome-balance.ts';
import { hashPassword } from './password-hash.ts';

export type CreateUserDeps = { db: Database; clock: Clock; ids: IdGenerator };

export type CreateUserInput = {
  email: string;
  password: string;
  role: UserRow['role'];
  /** Credited through the ledger as the welcome balance (idempotent per user). */
  welcomeBalanceMicros: number;
  /**
   * Set for a self sign-up: the address is then unverified until its link is used, and the sign-up address and
   * network hashes count towards the sign-up throttles. Without it (the CLI, tests) the address counts as verified.
   */
  signUp?: { locale: 'en' | 'ru'; addressHash: string; networkHash: string };
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
): Promise<
  Pick<UserRow, 'id' | 'email' | 'role' | 'status' | 'balance_micros' | 'created_at' | 'email_verified_at' | 'locale'>
> {
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
  const emailVerifiedAt = input.signUp ? null : user.created_at;
  const locale = input.signUp?.locale ?? 'en';
  const welcomeTransactionId = deps.ids.newId('ltx_');
  await deps.db.transaction().execute(async (trx) => {
    await insertUser(trx, {
      ...user,
      email_verified_at: emailVerifiedAt,
      locale,
      signup_address_hash: input.signUp?.addressHash ?? null,
      signup_network_hash: input.signUp?.networkHash ?? null,
    });
    await creditWelcomeBalance(trx, {
      userId: user.id,
      amountMicros: input.welcomeBalanceMicros,
      transactionId: welcomeTransactionId,
      nowMs: user.created_at,
    });
  });
  return {
    ...user,
    status: 'active',
    balance_micros: Math.max(input.welcomeBalanceMicros, 0),
    email_verified_at: emailVerifiedAt,
    locale,
  };
}
