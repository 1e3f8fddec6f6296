import type { AccountTermsRequest, OperatorUserDetail } from '../../../contract/operator.ts';
import { upsertAccountTerms } from '../db/account-terms.ts';
import { bumpCacheVersion } from '../db/cache-versions.ts';
import { findUserById } from '../db/users.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import type { AccountTerms } from '../accounts/account-terms.ts';
import { getOperatorUser } from './get-operator-user.ts';
import type { OperatorReadDeps } from './list-operator-users.ts';
import { percentToBasisPoints } from '../billing/parse-amounts.ts';
import { checkDiscountAboveCost, type RouteCostSource } from './model-route-costs.ts';

export type AccountTermsWriteDeps = OperatorReadDeps & {
  accountTerms: Pick<AccountTerms, 'reload'>;
  routeCosts: RouteCostSource;
};

/**
 * Sets an account's contract discount and request and token budgets. Every node reloads account terms on the `account_terms`
 * cache version (this one at once), so the next call is priced and limited by them.
 */
export async function setAccountTerms(
  deps: AccountTermsWriteDeps,
  input: { userId: string; request: AccountTermsRequest },
): Promise<OperatorUserDetail> {
  if (!(await findUserById(deps.db, input.userId))) throw new NotFoundError(`There is no account \`${input.userId}\`.`);
  const discountBasisPoints = percentToBasisPoints(input.request.contract_discount_percent);
  await checkDiscountAboveCost(
    { db: deps.db, nowMs: deps.clock.nowMs(), routeCosts: deps.routeCosts },
    { discountBasisPoints, isConfirmed: input.request.confirm_below_cost === true },
  );
  await upsertAccountTerms(deps.db, {
    user_id: input.userId,
    contract_discount_basis_points: discountBasisPoints,
    requests_per_minute: input.request.requests_per_minute,
    tokens_per_minute: input.request.tokens_per_minute ?? null,
    updated_at: deps.clock.nowMs(),
  });
  await bumpCacheVersion(deps.db, 'account_terms');
  await deps.accountTerms.reload();
  return getOperatorUser(deps, input.userId);
}
