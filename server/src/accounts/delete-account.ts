import type { DeleteAccountRequest } from '../../../contract/account-email.ts';
import { countTopUpsInFlight, eraseAccountIdentity } from '../db/account-deletion.ts';
import { bumpCacheVersion } from '../db/cache-versions.ts';
import type { Database } from '../db/database.ts';
import { userLedgerAccount, writeLedgerTransaction } from '../db/ledger.ts';
import { findUserById } from '../db/users.ts';
import { ConflictError } from '../errors/conflict-error.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import type { Clock } from '../lib/clock.ts';
import type { IdGenerator } from '../lib/ids.ts';
import { formatUsd } from '../lib/money.ts';
import type { ApiKeyCache } from './api-key-cache.ts';
import type { PasswordHasher } from './password-hash.ts';

export type DeleteAccountDeps = {
  db: Database;
  clock: Clock;
  ids: IdGenerator;
  passwords: Pick<PasswordHasher, 'verify'>;
  apiKeyCache: Pick<ApiKeyCache, 'reload'>;
};

/**
 * Deletes the signed-in account after checking its password. Refused while a top-up may still be paid (the money
 * would arrive on a deleted account) and, when a balance remains, until the user says what becomes of it: forfeited
 * (moved to `system:forfeited-balances` through the ledger) or left for the operator to refund. The row stays for the
 * books, without address or password; keys and sessions end on every node within a second.
 */
export async function deleteAccount(
  deps: DeleteAccountDeps,
  input: { userId: string; request: DeleteAccountRequest },
): Promise<void> {
  const user = await findUserById(deps.db, input.userId);
  if (!user) throw new NotFoundError('This account no longer exists.');
  if (!(await deps.passwords.verify(input.request.password, user.password_hash))) {
    throw new InvalidRequestError('The password is not correct.', { param: 'password', code: 'incorrect_password' });
  }
  if (user.role === 'admin') {
    throw new InvalidRequestError('An operator account cannot delete itself; another operator can block it.');
  }
  const nowMs = deps.clock.nowMs();
  if ((await countTopUpsInFlight(deps.db, { userId: user.id, nowMs })) > 0) {
    throw new ConflictError('A top-up of this account may still be paid. Wait until it completes or expires.', {
      code: 'payment_in_flight',
    });
  }
  const balanceMicros = user.balance_micros;
  if (balanceMicros > 0 && input.request.balance === undefined) {
    throw new ConflictError(
      `The account holds ${formatUsd(balanceMicros)} USD. Choose whether it is forfeited or left for the operator to refund.`,
      { param: 'balance', code: 'balance_remaining' },
    );
  }
  const transactionId = deps.ids.newId('ltx_');
  await deps.db.transaction().execute(async (trx) => {
    if (balanceMicros > 0 && input.request.balance === 'forfeit') {
      await writeLedgerTransaction(trx, {
        id: transactionId,
        idempotencyKey: `account-deletion:${user.id}`,
        kind: 'adjustment',
        reason: 'balance forfeited when the account was deleted',
        createdAt: nowMs,
        entries: [
          { account: userLedgerAccount(user.id), amountMicros: -balanceMicros },
          { account: 'system:forfeited-balances', amountMicros: balanceMicros },
        ],
      });
      await bumpCacheVersion(trx, 'balances');
    }
    await eraseAccountIdentity(trx, { userId: user.id, email: user.email, nowMs });
    await bumpCacheVersion(trx, 'api_keys');
  });
  await deps.apiKeyCache.reload();
}
