import type { OperatorPayment, OperatorPaymentList, OperatorPaymentQuery } from '../../../contract/payments.ts';
import type { Database } from '../db/database.ts';
import { listTopUpOrderTransitions } from '../db/top-up-order-transitions.ts';
import { findTopUpOrder, listTopUpOrders } from '../db/top-up-orders.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import { toOperatorPayment } from './to-top-up-order-view.ts';

/** The operator's payments list: every filter optional, newest first, paged by the last id seen. */
export async function listOperatorPayments(
  deps: { db: Database },
  query: OperatorPaymentQuery,
): Promise<OperatorPaymentList> {
  const limit = query.limit ?? 50;
  const cursor = query.before === undefined ? undefined : await findTopUpOrder(deps.db, query.before);
  const rows = await listTopUpOrders(deps.db, {
    provider: query.provider,
    method: query.method,
    statuses: query.status === undefined ? undefined : [query.status],
    userId: query.user_id,
    createdFrom: query.from === undefined ? undefined : Date.parse(query.from),
    createdBefore: query.to === undefined ? undefined : Date.parse(query.to),
    before: cursor ? { createdAt: cursor.created_at, id: cursor.id } : undefined,
    limit: limit + 1,
  });
  return {
    data: rows.slice(0, limit).map((row) => {
      const { transitions: _transitions, ...payment } = toOperatorPayment(row, []);
      return payment;
    }),
    has_more: rows.length > limit,
  };
}

/** One payment with its whole history of transitions. */
export async function getOperatorPayment(deps: { db: Database }, orderId: string): Promise<OperatorPayment> {
  const order = await findTopUpOrder(deps.db, orderId);
  if (!order) throw new NotFoundError(`There is no top-up \`${orderId}\`.`);
  return toOperatorPayment(order, await listTopUpOrderTransitions(deps.db, orderId));
}
