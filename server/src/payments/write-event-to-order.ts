import type { Transaction } from 'kysely';
import type { DatabaseSchema, TopUpOrderRow } from '../db/schema.ts';
import { formatUsd } from '../lib/money.ts';
import { returnedMicrosFor } from './fx/quote-top-up.ts';
import { decideOrderTransition, isCreditedStatus } from './order-state-machine.ts';
import type { PaymentEvent } from './payment-provider.ts';
import type { PaymentEventOutcome, PaymentEventSource } from './apply-payment-event.ts';
import { writeReceiptToOrder } from './write-receipt-to-order.ts';
import { flagOrder, moveOrder, topUpLedgerKey, writeOrderLedger, type OrderWriteDeps } from './write-order-change.ts';

type Trx = Transaction<DatabaseSchema>;
type OrderFact = Exclude<PaymentEvent, { kind: 'ignored' }>;
type ReturnFact = Extract<PaymentEvent, { kind: 'refunded' | 'charged_back' | 'chargeback_reversed' }>;

/** Applies one verified fact to a locked order inside `trx` (see `applyPaymentEvent`). */
export async function writeEventToOrder(
  deps: OrderWriteDeps,
  trx: Trx,
  input: {
    order: TopUpOrderRow;
    event: OrderFact;
    source: PaymentEventSource;
    /** For a refund: the payment's refunded total as the provider reports it now. */
    refundedTotalMinorUnits: number;
  },
): Promise<PaymentEventOutcome> {
  const { order, event } = input;
  const cause = `${input.source}: ${event.kind} (${event.eventKey})`;
  if (event.kind === 'succeeded') return writeSuccess(deps, trx, { order, event, cause });
  if (event.kind === 'received') return writeReceiptToOrder(deps, trx, { order, event, cause });
  if (event.kind === 'canceled') {
    const decision = decideOrderTransition(order.status, { kind: 'canceled' });
    if (decision.kind !== 'move') return { kind: 'repeated', orderId: order.id };
    await moveOrder(deps, trx, { order, to: decision.to, cause });
    return { kind: 'applied', orderId: order.id, status: decision.to };
  }
  return writeReturn(deps, trx, { order, event, cause, refundedTotalMinorUnits: input.refundedTotalMinorUnits });
}

async function writeSuccess(
  deps: OrderWriteDeps,
  trx: Trx,
  input: { order: TopUpOrderRow; event: Extract<PaymentEvent, { kind: 'succeeded' }>; cause: string },
): Promise<PaymentEventOutcome> {
  const { order, cause } = input;
  const { payment } = input.event;
  const mismatch =
    payment.amount.currency !== order.pay_currency || payment.amount.minorUnits !== order.pay_minor_units
      ? `paid ${payment.amount.minorUnits} ${payment.amount.currency} minor units, the order is for ${order.pay_minor_units} ${order.pay_currency}`
      : payment.orderId !== undefined && payment.orderId !== order.id
        ? `the payment names order ${payment.orderId}`
        : undefined;
  if (mismatch !== undefined) return flagOrder(trx, { order, reason: `${cause}: ${mismatch}`, at: deps.clock.nowMs() });
  const decision = decideOrderTransition(order.status, { kind: 'succeeded' });
  if (decision.kind !== 'move') return { kind: 'repeated', orderId: order.id };
  const paidOrder = { ...order, provider_payment_id: order.provider_payment_id ?? payment.providerPaymentId };
  await writeOrderLedger(deps, trx, {
    order: paidOrder,
    idempotencyKey: topUpLedgerKey(paidOrder),
    kind: 'top_up',
    reason: `top-up ${order.id} via ${order.provider} (${formatUsd(order.credit_micros)} USD)`,
    signedMicros: order.credit_micros,
  });
  await moveOrder(deps, trx, {
    order,
    to: decision.to,
    cause,
    changes: {
      provider_payment_id: paidOrder.provider_payment_id,
      credited_micros: order.credit_micros,
      ...(decision.isLate
        ? { is_paid_after_expiry: 1, review_reason: `paid after the order was ${order.status}; credited` }
        : {}),
    },
  });
  return { kind: 'applied', orderId: order.id, status: decision.to };
}

/**
 * A refund, chargeback or chargeback reversal. What is taken back is recomputed from the running totals in minor
 * units (`returnedMicrosFor`), so any split of refunds returns exactly the credit in the end, never a micro more.
 * Refunds follow the provider's refunded total; chargebacks (which have no such total) add their own amount.
 */
async function writeReturn(
  deps: OrderWriteDeps,
  trx: Trx,
  input: { order: TopUpOrderRow; event: ReturnFact; cause: string; refundedTotalMinorUnits: number },
): Promise<PaymentEventOutcome> {
  const { order, event, cause } = input;
  if (event.amount.currency !== order.pay_currency) {
    return flagOrder(trx, { order, reason: `${cause}: in ${event.amount.currency}`, at: deps.clock.nowMs() });
  }
  const minor = event.amount.minorUnits;
  // A refund's own amount is not added: the provider's total already holds it (and any refund booked before it).
  const refundedMinor =
    event.kind === 'refunded'
      ? Math.min(order.pay_minor_units, Math.max(order.refunded_minor_units, input.refundedTotalMinorUnits))
      : order.refunded_minor_units;
  if (event.kind === 'refunded' && refundedMinor === order.refunded_minor_units && isCreditedStatus(order.status)) {
    return { kind: 'repeated', orderId: order.id };
  }
  const chargeBackChange = event.kind === 'charged_back' ? minor : event.kind === 'chargeback_reversed' ? -minor : 0;
  const chargedBackMinor = Math.max(0, order.charged_back_minor_units + chargeBackChange);
  const decision = decideOrderTransition(
    order.status,
    event.kind === 'refunded'
      ? { kind: 'refunded', isWhollyReturned: refundedMinor + chargedBackMinor >= order.pay_minor_units }
      : event.kind === 'charged_back'
        ? { kind: 'charged_back' }
        : { kind: 'chargeback_reversed', hasRefunds: refundedMinor > 0 },
  );
  if (decision.kind === 'refused' && decision.reason === 'not_credited')
    return { kind: 'not_ready', orderId: order.id };
  if (decision.kind !== 'move') return { kind: 'repeated', orderId: order.id };
  const returnedMicros = returnedMicrosFor({
    creditMicros: order.credited_micros,
    payMinorUnits: order.pay_minor_units,
    returnedMinorUnits: refundedMinor + chargedBackMinor,
  });
  const takenMicros = returnedMicros - order.refunded_micros - order.charged_back_micros;
  const prefix =
    event.kind === 'refunded' ? 'refund' : event.kind === 'charged_back' ? 'chargeback' : 'chargeback-reversal';
  await writeOrderLedger(deps, trx, {
    order,
    idempotencyKey: `${prefix}:${order.provider}:${event.eventKey}`,
    kind: 'refund',
    reason: `${prefix.replace('-', ' ')} of top-up ${order.id} via ${order.provider} (${formatUsd(Math.abs(takenMicros))} USD)`,
    signedMicros: -takenMicros,
  });
  const isRefund = event.kind === 'refunded';
  await moveOrder(deps, trx, {
    order,
    to: decision.to,
    cause,
    changes: {
      refunded_minor_units: refundedMinor,
      charged_back_minor_units: chargedBackMinor,
      refunded_micros: order.refunded_micros + (isRefund ? takenMicros : 0),
      charged_back_micros: order.charged_back_micros + (isRefund ? 0 : takenMicros),
    },
  });
  return { kind: 'applied', orderId: order.id, status: decision.to };
}
