import type { OperatorUser, OperatorUserList, OperatorUserQuery } from '../../../contract/operator.ts';
import { listAccountTerms } from '../db/account-terms.ts';
import type { Database } from '../db/database.ts';
import { listSubscriptionPlans } from '../db/subscription-plans.ts';
import { listSubscriptionsOfUsers } from '../db/subscriptions.ts';
import { searchUsers, type DirectoryUser } from '../db/user-directory.ts';
import type { Clock } from '../lib/clock.ts';
import { microsToUsd } from '../lib/money.ts';
import { toSubscriptionView } from '../subscriptions/to-subscription-view.ts';

export type OperatorReadDeps = { db: Database; clock: Clock };

const defaultLimit = 50;

/** Accounts, newest first, optionally those whose e-mail contains the search text; a page at a time. */
export async function listOperatorUsers(deps: OperatorReadDeps, query: OperatorUserQuery): Promise<OperatorUserList> {
  const limit = query.limit ?? defaultLimit;
  const rows = await searchUsers(deps.db, {
    emailContains: query.email,
    limit: limit + 1,
    offset: query.offset ?? 0,
  });
  return { data: await toOperatorUsers(deps, rows.slice(0, limit)), has_more: rows.length > limit };
}

/** Adds each account's terms and subscription to its directory row. */
export async function toOperatorUsers(
  deps: OperatorReadDeps,
  users: readonly DirectoryUser[],
): Promise<OperatorUser[]> {
  const userIds = users.map((user) => user.id);
  const [terms, subscriptions, plans] = await Promise.all([
    listAccountTerms(deps.db, userIds),
    listSubscriptionsOfUsers(deps.db, userIds),
    listSubscriptionPlans(deps.db, { isActiveOnly: false }),
  ]);
  const termsByUser = new Map(terms.map((row) => [row.user_id, row]));
  const subscriptionByUser = new Map(subscriptions.map((row) => [row.user_id, row]));
  const planNames = new Map(plans.map((plan) => [plan.id, plan.name]));
  const nowMs = deps.clock.nowMs();
  return users.map((user) => {
    const userTerms = termsByUser.get(user.id);
    const subscription = subscriptionByUser.get(user.id);
    return {
      id: user.id,
      email: user.email,
      role: user.role,
      status: user.status,
      balance_usd: microsToUsd(user.balance_micros),
      created_at: new Date(user.created_at).toISOString(),
      active_key_count: user.active_key_count,
      contract_discount_percent: (userTerms?.contract_discount_basis_points ?? 0) / 100,
      requests_per_minute: userTerms?.requests_per_minute ?? null,
      tokens_per_minute: userTerms?.tokens_per_minute ?? null,
      subscription: subscription
        ? toSubscriptionView(subscription, { planName: planNames.get(subscription.plan_id) ?? '', nowMs })
        : null,
    };
  });
}
