import type { OperatorPayment } from '../../../contract/payments.ts';
import { lockTopUpOrder } from '../db/top-up-orders.ts';
import { ConflictError } from '../errors/conflict-error.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import { formatUsd } from '../lib/money.ts';
import type { PaymentCoreDeps } from './apply-payment-event.ts';
import { getOperatorPayment, type OperatorPaymentViewDeps } from './list-operator-payments.ts';
import { decideOrderTransition } from './order-state-machine.ts';
import { moveOrder, topUpLedgerKey, writeOrderLedger } from './write-order-change.ts';

/**
 * The operator credits an order by hand (a payment found in the provider's dashboard that never reached us), with a
 * mandatory reason written into the ledger entry and the transition. The entry uses the order's usual idempotency
 * key, so a notification arriving afterwards does not credit it again. Only an order not yet credited can be marked.
 */
export async function markTopUpPaid(
  deps: PaymentCoreDeps & OperatorPaymentViewDeps,
  input: { orderId: string; operatorUserId: string; reason: string },
): Promise<OperatorPayment> {
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const order = await lockTopUpOrder(trx, input.orderId);
    if (!order) return 'missing' as const;
    const decision = decideOrderTransition(order.status, { kind: 'succeeded' });
    if (decision.kind !== 'move') return 'already_credited' as const;
    const cause = `operator ${input.operatorUserId} marked paid: ${input.reason}`;
    await writeOrderLedger(deps, trx, {
      order,
      idempotencyKey: topUpLedgerKey(order),
      kind: 'top_up',
      reason: `top-up ${order.id} marked paid by hand (${formatUsd(order.credit_micros)} USD): ${input.reason}`,
      signedMicros: order.credit_micros,
    });
    await moveOrder(deps, trx, {
      order,
      to: decision.to,
      cause,
      changes: { credited_micros: order.credit_micros, review_reason: cause },
    });
    return 'credited' as const;
  });
  if (outcome === 'missing') throw new NotFoundError(`There is no top-up \`${input.orderId}\`.`);
  if (outcome === 'already_credited') {
    throw new ConflictError('This top-up is already credited; it cannot be marked paid again.', {
      code: 'already_credited',
    });
  }
  await deps.onBalancesChanged();
  return getOperatorPayment(deps, input.orderId);
}
