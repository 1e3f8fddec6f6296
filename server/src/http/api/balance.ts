import { getBalance } from '../../accounts/get-balance.ts';
import type { HeldCredits } from '../../accounts/get-balance-micros.ts';
import type { Database } from '../../db/database.ts';
import type { ApiHandlers } from './endpoint-handler.ts';

export type BalanceHandlerDeps = { db: Database; creditHolds: HeldCredits };

/** `GET /api/balance`: balance, held, available and the latest ledger entries of the signed-in account. */
export function createBalanceHandlers(deps: BalanceHandlerDeps): Pick<ApiHandlers, 'getBalance'> {
  return { getBalance: async ({ session }) => getBalance(deps, session.userId) };
}
