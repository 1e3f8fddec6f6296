import type { OperatorUserDetail } from '../../../contract/operator.ts';
import { listAccountModelPrices } from '../db/account-terms.ts';
import { listLedgerEntries, userLedgerAccount } from '../db/ledger.ts';
import { findDirectoryUser } from '../db/user-directory.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import { microsToUsd } from '../lib/money.ts';
import { toOperatorUsers, type OperatorReadDeps } from './list-operator-users.ts';

const recentEntryCount = 50;

/** One account with its own model prices and its latest ledger entries. */
export async function getOperatorUser(deps: OperatorReadDeps, userId: string): Promise<OperatorUserDetail> {
  const user = await findDirectoryUser(deps.db, userId);
  if (!user) throw new NotFoundError(`There is no account \`${userId}\`.`);
  const [[operatorUser], prices, entries] = await Promise.all([
    toOperatorUsers(deps, [user]),
    listAccountModelPrices(deps.db, userId),
    listLedgerEntries(deps.db, { account: userLedgerAccount(userId), limit: recentEntryCount }),
  ]);
  if (!operatorUser) throw new NotFoundError(`There is no account \`${userId}\`.`);
  return {
    ...operatorUser,
    model_prices: prices.map((price) => ({
      model_id: price.model_id,
      input_usd_per_million: microsToUsd(price.input_rate_micros),
      output_usd_per_million: microsToUsd(price.output_rate_micros),
      cached_input_usd_per_million:
        price.cached_input_rate_micros === null ? null : microsToUsd(price.cached_input_rate_micros),
      usd_per_request: price.per_request_micros === null ? null : microsToUsd(price.per_request_micros),
      updated_at: new Date(price.updated_at).toISOString(),
    })),
    entries: entries.map((entry) => ({
      transaction_id: entry.transaction_id,
      kind: entry.kind,
      reason: entry.reason,
      amount_usd: microsToUsd(entry.amount_micros),
      created_at: new Date(entry.created_at).toISOString(),
    })),
  };
}
