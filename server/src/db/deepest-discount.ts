import type { Database } from './database.ts';

/**
 * The deepest discount any account can have on the price list now, basis points: the plans on sale, the
 * subscriptions still running (they keep the discount they bought) and the contract discounts. An account gets the
 * larger of its plan's and its contract's (accounts/account-terms.ts), so the deepest is the largest of all three.
 */
export async function findDeepestDiscountBasisPoints(db: Database, input: { nowMs: number }): Promise<number> {
  const [plans, subscriptions, contracts] = await Promise.all([
    db
      .selectFrom('subscription_plans')
      .select((select) => select.fn.max('discount_basis_points').as('deepest'))
      .where('is_active', '=', 1)
      .executeTakeFirst(),
    db
      .selectFrom('subscriptions')
      .select((select) => select.fn.max('discount_basis_points').as('deepest'))
      .where('expires_at', '>', input.nowMs)
      .executeTakeFirst(),
    db
      .selectFrom('account_terms')
      .select((select) => select.fn.max('contract_discount_basis_points').as('deepest'))
      .executeTakeFirst(),
  ]);
  return Math.max(0, ...[plans, subscriptions, contracts].map((row) => Number(row?.deepest ?? 0)));
}
