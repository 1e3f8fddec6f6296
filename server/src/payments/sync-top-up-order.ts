import type { TopUpOrderRow } from '../db/schema.ts';
import { findTopUpOrder, lockTopUpOrder } from '../db/top-up-orders.ts';
import { applyPaymentEvent, type PaymentCoreDeps } from './apply-payment-event.ts';
import { decideOrderTransition, isWaitingStatus } from './order-state-machine.ts';
import type { PaymentProviders } from './payment-providers.ts';
import { moveOrder } from './write-order-change.ts';

export type SyncTopUpOrderDeps = PaymentCoreDeps & { paymentProviders: Pick<PaymentProviders, 'find'> };

/**
 * Asks the provider where a waiting order's payment stands and applies what it says through `applyPaymentEvent` (so
 * a lost webhook still credits, exactly once); an order still waiting past its expiry becomes `expired`. A payment
 * that succeeds later still credits (flagged). A crypto processor's payment is re-read as the `received` events its
 * notifications become (a partly paid order included), so a lost notification still credits. Returns the order as
 * it now is.
 */
export async function syncTopUpOrder(
  deps: SyncTopUpOrderDeps,
  input: { order: TopUpOrderRow; source: 'reconciliation' | 'return page' },
): Promise<TopUpOrderRow> {
  const { order, source } = input;
  const provider = deps.paymentProviders.find(order.provider);
  if (provider?.fetchPaymentEvents && order.provider_payment_id !== null && isOpenForReceipts(order)) {
    for (const event of await provider.fetchPaymentEvents(order.provider_payment_id)) {
      await applyPaymentEvent(deps, { provider, event, source });
    }
    if (isWaitingStatus(order.status) && deps.clock.nowMs() >= order.quote_expires_at) {
      await expire(deps, { orderId: order.id, source });
    }
    return (await findTopUpOrder(deps.db, order.id)) ?? order;
  }
  if (!isWaitingStatus(order.status)) return order;
  if (provider && order.provider_payment_id !== null) {
    const payment = await provider.fetchPayment(order.provider_payment_id);
    if (payment.status !== 'pending') {
      const kind = payment.status;
      await applyPaymentEvent(deps, {
        provider,
        event: { kind, eventKey: `${payment.providerPaymentId}:${kind}`, payment },
        source,
      });
    }
  }
  if (deps.clock.nowMs() >= order.quote_expires_at) await expire(deps, { orderId: order.id, source });
  return (await findTopUpOrder(deps.db, order.id)) ?? order;
}

/** A processor's order can still receive money while it waits and once partly paid (the rest may come later). */
const isOpenForReceipts = (order: TopUpOrderRow): boolean =>
  isWaitingStatus(order.status) || order.status === 'partially_paid';

async function expire(deps: PaymentCoreDeps, input: { orderId: string; source: string }): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const locked = await lockTopUpOrder(trx, input.orderId);
    if (!locked) return;
    const decision = decideOrderTransition(locked.status, { kind: 'expired' });
    if (decision.kind !== 'move') return;
    await moveOrder(deps, trx, { order: locked, to: decision.to, cause: `${input.source}: quote expired unpaid` });
  });
}
