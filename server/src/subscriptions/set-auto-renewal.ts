import type { AccountSubscription } from '../../../contract/subscriptions.ts';
import { findSubscription, updateAutoRenewal } from '../db/subscriptions.ts';
import { ConflictError } from '../errors/conflict-error.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import { getAccountSubscription, type AccountSubscriptionDeps } from './get-account-subscription.ts';

/**
 * Turns the account's auto-renewal on or off. It can be switched on only while a period runs (after one ended, the
 * plan is bought again), so switching it on never pays by itself.
 */
export async function setAutoRenewal(
  deps: AccountSubscriptionDeps,
  input: { userId: string; isAutoRenewing: boolean },
): Promise<AccountSubscription> {
  const current = await findSubscription(deps.db, input.userId);
  if (!current) throw new NotFoundError('This account has no subscription; buy a plan first.');
  if (input.isAutoRenewing && current.expires_at <= deps.clock.nowMs()) {
    throw new ConflictError('The subscription has ended; buy the plan again to start a new period.', {
      code: 'subscription_ended',
      param: 'auto_renew',
    });
  }
  await updateAutoRenewal(deps.db, { ...input, updatedAt: deps.clock.nowMs() });
  return getAccountSubscription(deps, input.userId);
}
