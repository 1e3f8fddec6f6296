import type { TopUpOrderList, TopUpOrderView } from '../../../contract/payments.ts';
import { findTopUpOrder, listTopUpOrders } from '../db/top-up-orders.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import { isWaitingStatus } from './order-state-machine.ts';
import { syncTopUpOrder, type SyncTopUpOrderDeps } from './sync-top-up-order.ts';
import { toTopUpOrderView } from './to-top-up-order-view.ts';
import { withCryptoDeposit } from './with-crypto-deposit.ts';

export type GetTopUpOrderDeps = SyncTopUpOrderDeps & { onSyncError: (orderId: string, error: unknown) => void };

/**
 * One of the user's orders. The return page polls this: a waiting order is re-fetched from its provider first, so
 * a user who came back before the webhook sees the credit at once. A provider that cannot be reached just leaves
 * the order as stored (reconciliation tries again).
 */
export async function getTopUpOrder(
  deps: GetTopUpOrderDeps,
  input: { userId: string; orderId: string },
): Promise<TopUpOrderView> {
  const order = await findTopUpOrder(deps.db, input.orderId);
  if (!order || order.user_id !== input.userId) {
    throw new NotFoundError(`There is no top-up \`${input.orderId}\` on this account.`);
  }
  // A partly paid USDT order can still receive the rest, so its page asks again too.
  if (!isWaitingStatus(order.status) && order.status !== 'partially_paid') {
    return withCryptoDeposit(deps.db, toTopUpOrderView(order));
  }
  try {
    return withCryptoDeposit(deps.db, toTopUpOrderView(await syncTopUpOrder(deps, { order, source: 'return page' })));
  } catch (error) {
    deps.onSyncError(order.id, error);
    return withCryptoDeposit(deps.db, toTopUpOrderView(order));
  }
}

/** The user's orders, newest first; `before` is the id of the last order of the previous page. */
export async function listMyTopUpOrders(
  deps: Pick<GetTopUpOrderDeps, 'db'>,
  input: { userId: string; limit: number | undefined; before: string | undefined },
): Promise<TopUpOrderList> {
  const limit = input.limit ?? 50;
  const cursor = input.before === undefined ? undefined : await findTopUpOrder(deps.db, input.before);
  const rows = await listTopUpOrders(deps.db, {
    userId: input.userId,
    before: cursor && cursor.user_id === input.userId ? { createdAt: cursor.created_at, id: cursor.id } : undefined,
    limit: limit + 1,
  });
  return { data: rows.slice(0, limit).map(toTopUpOrderView), has_more: rows.length > limit };
}
