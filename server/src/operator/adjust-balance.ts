import {
  maxAdjustmentMicros,
  type BalanceAdjustment,
  type BalanceAdjustmentRequest,
} from '../../../contract/operator.ts';
import type { CreditHolds } from '../billing/credit-holds.ts';
import type { Database } from '../db/database.ts';
import { postLedgerTransaction, userLedgerAccount } from '../db/ledger.ts';
import { findLedgerTransactionByKey } from '../db/ledger-transaction-lookup.ts';
import { findUserById } from '../db/users.ts';
import { ConflictError } from '../errors/conflict-error.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import type { Clock } from '../lib/clock.ts';
import type { IdGenerator } from '../lib/ids.ts';
import { formatUsd, microsToUsd } from '../lib/money.ts';

export type AdjustBalanceDeps = { db: Database; clock: Clock; ids: IdGenerator; creditHolds: CreditHolds };

/** The ledger account on the operator's side of every adjustment. */
const adjustmentsAccount = 'system:adjustments';

/**
 * Credits or debits an account through the ledger, once per idempotency key (the client's, or a new adjustment id).
 * A debit is held first like a call's cost, so it never takes the balance below zero, even with calls in flight.
 * The same key with a different account, direction or amount is a 409; the ledger is unchanged by any refusal.
 */
export async function adjustBalance(
  deps: AdjustBalanceDeps,
  input: { userId: string; request: BalanceAdjustmentRequest },
): Promise<BalanceAdjustment> {
  const { request, userId } = input;
  const user = await findUserById(deps.db, userId);
  if (!user) throw new NotFoundError(`There is no account \`${userId}\`.`);
  const clientKey = request.idempotency_key ?? deps.ids.newId('adj_');
  const idempotencyKey = `adjustment:${clientKey}`;
  const signedMicros = request.direction === 'credit' ? request.amount_micros : -request.amount_micros;
  const earlier = await findLedgerTransactionByKey(deps.db, idempotencyKey);
  if (earlier) {
    const isSameAdjustment = earlier.entries.some(
      (entry) => entry.account === userLedgerAccount(userId) && entry.amountMicros === signedMicros,
    );
    if (!isSameAdjustment) {
      throw new ConflictError(
        `The idempotency key \`${clientKey}\` was already used for a different adjustment; use a new key.`,
        { code: 'idempotency_key_reused', param: 'idempotency_key' },
      );
    }
    return describe(deps, { transactionId: earlier.id, clientKey, isNew: false, signedMicros, userId });
  }
  if (request.direction === 'credit' && user.balance_micros + request.amount_micros > maxAdjustmentMicros) {
    throw new InvalidRequestError(
      `The credit would take the balance over ${formatUsd(maxAdjustmentMicros)} USD, the most an account may hold.`,
      { param: 'amount_micros', code: 'integer_above_max_value' },
    );
  }
  const hold =
    request.direction === 'debit'
      ? await deps.creditHolds.reserve({
          userId,
          holdId: idempotencyKey,
          desiredMicros: request.amount_micros,
          minimumMicros: request.amount_micros,
        })
      : undefined;
  if (request.direction === 'debit' && !hold) {
    const available = await deps.creditHolds.availableMicros(userId);
    throw new InvalidRequestError(
      `The debit (${formatUsd(request.amount_micros)} USD) exceeds the available balance (${formatUsd(Math.max(available, 0))} USD).`,
      { param: 'amount_micros', code: 'exceeds_balance' },
    );
  }
  const transactionId = deps.ids.newId('ltx_');
  let isNew;
  try {
    isNew = await postLedgerTransaction(deps.db, {
      id: transactionId,
      idempotencyKey,
      kind: 'adjustment',
      reason: request.reason,
      createdAt: deps.clock.nowMs(),
      entries: [
        { account: userLedgerAccount(userId), amountMicros: signedMicros },
        { account: adjustmentsAccount, amountMicros: -signedMicros },
      ],
    });
  } catch (error) {
    if (hold) await deps.creditHolds.release(hold);
    throw error;
  }
  if (hold) await deps.creditHolds.settleCommitted(hold);
  else await deps.creditHolds.refresh();
  // A concurrent request with the same key posted first: answer with its transaction.
  const posted = isNew ? transactionId : ((await findLedgerTransactionByKey(deps.db, idempotencyKey))?.id ?? '');
  return describe(deps, { transactionId: posted, clientKey, isNew, signedMicros, userId });
}

async function describe(
  deps: AdjustBalanceDeps,
  input: { transactionId: string; clientKey: string; isNew: boolean; signedMicros: number; userId: string },
): Promise<BalanceAdjustment> {
  const user = await findUserById(deps.db, input.userId);
  return {
    transaction_id: input.transactionId,
    idempotency_key: input.clientKey,
    is_new: input.isNew,
    amount_usd: microsToUsd(input.signedMicros),
    balance_usd: microsToUsd(user?.balance_micros ?? 0),
  };
}
