import type { Database } from '../db/database.ts';
import { insertPaymentProviderEvent } from '../db/payment-provider-events.ts';
import type { TopUpOrderRow, TopUpOrderStatus } from '../db/schema.ts';
import { findTopUpOrder, findTopUpOrderByProviderPayment, lockTopUpOrder } from '../db/top-up-orders.ts';
import { writeEventToOrder } from './write-event-to-order.ts';
import type { OrderWriteDeps } from './write-order-change.ts';
import type { PaymentEvent, PaymentProvider } from './payment-provider.ts';

export type PaymentCoreDeps = OrderWriteDeps & {
  db: Database;
  /** Tells this node's balance cache that the ledger moved (other nodes follow `cache_versions`). */
  onBalancesChanged: () => Promise<void>;
};

/** Who noticed the fact: recorded as the cause of the order's transition. */
export type PaymentEventSource = 'webhook' | 'reconciliation' | 'return page' | 'operator' | 'chain watcher';

export type PaymentEventOutcome =
  | { kind: 'applied'; orderId: string; status: TopUpOrderStatus }
  /** Already handled (the same event key, or the order is already there): nothing changed. */
  | { kind: 'repeated'; orderId: string | undefined }
  /** Authentic, but not creditable as it stands (amount, currency or order reference differ): flagged for review. */
  | { kind: 'flagged'; orderId: string; reason: string }
  | { kind: 'ignored' }
  | { kind: 'unknown_order' }
  | { kind: 'sandbox_in_live_mode' }
  /** Cannot apply yet (a refund for a payment not yet credited): the provider should deliver it again later. */
  | { kind: 'not_ready'; orderId: string };

/** Whether the provider may stop re-delivering: everything but the outcomes that a later delivery can change. */
export function isSettledOutcome(outcome: PaymentEventOutcome): boolean {
  return outcome.kind !== 'unknown_order' && outcome.kind !== 'sandbox_in_live_mode' && outcome.kind !== 'not_ready';
}

/**
 * The one way a provider's fact reaches an order and the ledger (webhooks, the return-page poll and reconciliation
 * all come here). In one database transaction: lock the order, record the event key (a re-delivery stops here),
 * check the transition and the amount, write the ledger entries under the payment's idempotency key, move the order.
 * A refund or chargeback for a payment not yet credited re-fetches the payment and credits it first, if it succeeded.
 */
export async function applyPaymentEvent(
  deps: PaymentCoreDeps,
  input: { provider: PaymentProvider; event: PaymentEvent; source: PaymentEventSource },
): Promise<PaymentEventOutcome> {
  const outcome = await applyOnce(deps, input);
  const { event, provider } = input;
  if (outcome.kind !== 'not_ready' || event.kind === 'succeeded' || event.kind === 'canceled') return outcome;
  if (event.kind === 'ignored') return outcome;
  const payment = await provider.fetchPayment(event.providerPaymentId);
  if (payment.status !== 'succeeded') return outcome;
  const success: PaymentEvent = { kind: 'succeeded', eventKey: `${payment.providerPaymentId}:succeeded`, payment };
  await applyOnce(deps, { ...input, event: success });
  return applyOnce(deps, input);
}

async function applyOnce(
  deps: PaymentCoreDeps,
  input: { provider: PaymentProvider; event: PaymentEvent; source: PaymentEventSource },
): Promise<PaymentEventOutcome> {
  const { provider, event } = input;
  if (event.kind === 'ignored') {
    await insertPaymentProviderEvent(deps.db, {
      provider: provider.id,
      event_key: event.eventKey,
      order_id: null,
      kind: event.kind,
      received_at: deps.clock.nowMs(),
    });
    return { kind: 'ignored' };
  }
  const isTest = event.kind === 'succeeded' || event.kind === 'canceled' ? event.payment.isTest : event.isTest;
  if (isTest && !provider.isSandbox) return { kind: 'sandbox_in_live_mode' };
  const reference =
    event.kind === 'succeeded' || event.kind === 'canceled'
      ? { providerPaymentId: event.payment.providerPaymentId, orderId: event.payment.orderId }
      : { providerPaymentId: event.providerPaymentId, orderId: event.orderId };
  const order = await findEventOrder(deps.db, { provider: provider.id, ...reference });
  if (!order) return { kind: 'unknown_order' };
  // Refunds are booked up to the total the provider reports, so our own refund and its notification count once.
  const refundedTotalMinorUnits =
    event.kind === 'refunded' ? (await provider.fetchPayment(event.providerPaymentId)).refundedMinorUnits : 0;
  const outcome = await deps.db
    .transaction()
    .execute(async (trx) => {
      const locked = await lockTopUpOrder(trx, order.id);
      if (!locked) throw new Error(`top-up order ${order.id} vanished`);
      const isNew = await insertPaymentProviderEvent(trx, {
        provider: provider.id,
        event_key: event.eventKey,
        order_id: order.id,
        kind: event.kind,
        received_at: deps.clock.nowMs(),
      });
      if (!isNew) return { kind: 'repeated', orderId: order.id } as const;
      const written = await writeEventToOrder(deps, trx, {
        order: locked,
        event,
        source: input.source,
        refundedTotalMinorUnits,
      });
      // Rolling back forgets the event key too, so the provider's next delivery is handled afresh.
      if (written.kind === 'not_ready') throw new NotReady(written);
      return written;
    })
    .catch((error: unknown) => {
      if (error instanceof NotReady) return error.outcome;
      throw error;
    });
  if (outcome.kind === 'applied') await deps.onBalancesChanged();
  return outcome;
}

/** By the provider's payment id, else by our order id as the provider stored it (a webhook may beat our own write). */
async function findEventOrder(
  db: Database,
  input: { provider: string; providerPaymentId: string; orderId: string | undefined },
): Promise<TopUpOrderRow | undefined> {
  const byPayment = await findTopUpOrderByProviderPayment(db, input);
  if (byPayment || input.orderId === undefined) return byPayment;
  const byId = await findTopUpOrder(db, input.orderId);
  const isSamePayment = byId?.provider_payment_id === null || byId?.provider_payment_id === input.providerPaymentId;
  return byId && byId.provider === input.provider && isSamePayment ? byId : undefined;
}

class NotReady extends Error {
  readonly outcome: PaymentEventOutcome;
  constructor(outcome: PaymentEventOutcome) {
    super('payment event not ready');
    this.outcome = outcome;
  }
}
