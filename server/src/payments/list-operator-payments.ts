import type { OperatorPayment, OperatorPaymentList, OperatorPaymentQuery } from '../../../contract/payments.ts';
import type { Database } from '../db/database.ts';
import { listTopUpOrderTransitions } from '../db/top-up-order-transitions.ts';
import { findTopUpOrder, listTopUpOrders } from '../db/top-up-orders.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import { findCryptoDeposit, listCryptoDepositTransfers } from '../db/crypto-deposits.ts';
import { microsToUsd } from '../lib/money.ts';
import { toCryptoDepositView } from './with-crypto-deposit.ts';
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

/** What one payment's view needs: the database, and where a TRON transaction id is shown (`TRON_EXPLORER_TX_URL`). */
export type OperatorPaymentViewDeps = { db: Database; tronExplorerTxUrl: string };

/** One payment with its whole history of transitions, and a USDT order's address, index and transfers. */
export async function getOperatorPayment(deps: OperatorPaymentViewDeps, orderId: string): Promise<OperatorPayment> {
  const order = await findTopUpOrder(deps.db, orderId);
  if (!order) throw new NotFoundError(`There is no top-up \`${orderId}\`.`);
  const payment = toOperatorPayment(order, await listTopUpOrderTransitions(deps.db, orderId));
  const deposit = await findCryptoDeposit(deps.db, orderId);
  if (!deposit) return payment;
  const transfers = await listCryptoDepositTransfers(deps.db, orderId);
  return {
    ...payment,
    crypto_deposit: toCryptoDepositView(deposit),
    derivation_index: deposit.derivation_index,
    crypto_transfers: transfers.map((transfer) => ({
      tx_id: transfer.tx_id,
      // The explorer shows a TRON transaction by its id; a processor's payment id is no chain transaction.
      explorer_url: deposit.way === 'tron' ? `${deps.tronExplorerTxUrl}${encodeURIComponent(transfer.tx_id)}` : null,
      amount_micro: Number(transfer.amount_micro_usdt),
      credited_usd: microsToUsd(Number(transfer.credited_micros)),
      is_late: transfer.is_late === 1,
      credited_at: new Date(Number(transfer.credited_at)).toISOString(),
    })),
  };
}
