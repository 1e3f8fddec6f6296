import { listPartlyPaidTopUpOrders, listUnsettledTopUpOrders } from '../db/top-up-orders.ts';
import { syncTopUpOrder, type SyncTopUpOrderDeps } from './sync-top-up-order.ts';

/** How often each node polls waiting orders, and how many per pass. */
export const reconciliationIntervalMs = 60_000;
const ordersPerPass = 200;
/** How long a partly paid order is still asked about: a payer who sends the rest does so within days. */
const partlyPaidWindowMs = 7 * 24 * 3_600_000;

/**
 * One reconciliation pass: every order still created or pending, and every partly paid one of the last week, is
 * re-fetched from its provider and brought up to date (credited, canceled or expired; a provider without
 * `fetchPaymentEvents` leaves a partly paid order as it is). One order's failure (a provider down) is reported and the pass goes on; the
 * next pass tries it again. Several nodes may run it at once: crediting is idempotent.
 */
export async function reconcileTopUpOrders(
  deps: SyncTopUpOrderDeps & { onOrderError: (orderId: string, error: unknown) => void },
): Promise<{ checkedCount: number; failedCount: number }> {
  const orders = [
    ...(await listUnsettledTopUpOrders(deps.db, { limit: ordersPerPass })),
    ...(await listPartlyPaidTopUpOrders(deps.db, {
      createdFrom: deps.clock.nowMs() - partlyPaidWindowMs,
      limit: ordersPerPass,
    })),
  ];
  let failedCount = 0;
  for (const order of orders) {
    try {
      await syncTopUpOrder(deps, { order, source: 'reconciliation' });
    } catch (error) {
      failedCount += 1;
      deps.onOrderError(order.id, error);
    }
  }
  return { checkedCount: orders.length, failedCount };
}
