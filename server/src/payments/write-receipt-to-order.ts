import type { Transaction } from 'kysely';
import { addReceivedMicroUsdt, findCryptoDeposit, insertCryptoDepositTransfer } from '../db/crypto-deposits.ts';
import type { DatabaseSchema, TopUpOrderRow } from '../db/schema.ts';
import { formatUsd } from '../lib/money.ts';
import type { PaymentEventOutcome } from './apply-payment-event.ts';
import { decideOrderTransition } from './order-state-machine.ts';
import type { PaymentEvent } from './payment-provider.ts';
import { flagOrder, moveOrder, writeOrderLedger, type OrderWriteDeps } from './write-order-change.ts';

type Trx = Transaction<DatabaseSchema>;
type Receipt = Extract<PaymentEvent, { kind: 'received' }>;

const MICROS_PER_UNIT = 1_000_000n;

/**
 * USDT that reached a locked order's deposit address, inside the crediting transaction: the amount received (never
 * the amount asked) is credited at the order's locked rate under `topup:<provider>:<transfer key>`, so each transfer
 * credits once whoever reports it; the order moves to succeeded or partially paid by the running total, flagged late
 * when it had expired. A currency other than USDT, or an order without a deposit, is flagged and credits nothing.
 */
export async function writeReceiptToOrder(
  deps: OrderWriteDeps,
  trx: Trx,
  input: { order: TopUpOrderRow; event: Receipt; cause: string },
): Promise<PaymentEventOutcome> {
  const { order, event, cause } = input;
  const deposit = await findCryptoDeposit(trx, order.id);
  const at = deps.clock.nowMs();
  if (!deposit) return flagOrder(trx, { order, reason: `${cause}: the order has no USDT deposit address`, at });
  if (event.received.currency !== 'USDT') {
    return flagOrder(trx, {
      order,
      reason: `${cause}: paid in ${event.received.currency}, the order asks for USDT`,
      at,
    });
  }
  const microUsdt = event.received.isRunningTotal
    ? event.received.microUnits - deposit.received_micro_usdt
    : event.received.microUnits;
  if (microUsdt <= 0) return { kind: 'repeated', orderId: order.id };
  const receivedMicroUsdt = deposit.received_micro_usdt + microUsdt;
  const decision = decideOrderTransition(order.status, {
    kind: 'received',
    isFullyPaid: receivedMicroUsdt >= deposit.expected_micro_usdt,
  });
  if (decision.kind !== 'move') return { kind: 'repeated', orderId: order.id };
  // Rounded down: the user never gets a fraction of a micro-dollar the operator did not receive.
  const creditMicros = Number((BigInt(microUsdt) * MICROS_PER_UNIT) / BigInt(deposit.micro_usdt_per_usd));
  const isNew = await insertCryptoDepositTransfer(trx, {
    way: deposit.way,
    transfer_key: event.transferKey,
    order_id: order.id,
    tx_id: event.txId,
    amount_micro_usdt: microUsdt,
    credited_micros: creditMicros,
    is_late: decision.isLate ? 1 : 0,
    credited_at: at,
  });
  if (!isNew) return { kind: 'repeated', orderId: order.id };
  await writeOrderLedger(deps, trx, {
    order,
    idempotencyKey: `topup:${order.provider}:${event.transferKey}`,
    kind: 'top_up',
    reason: `top-up ${order.id} via ${order.provider}: ${formatUsdt(microUsdt)} USDT in ${event.txId} (${formatUsd(creditMicros)} USD)`,
    signedMicros: creditMicros,
  });
  await addReceivedMicroUsdt(trx, { orderId: order.id, microUsdt });
  await moveOrder(deps, trx, {
    order,
    to: decision.to,
    cause: `${cause}: ${formatUsdt(microUsdt)} USDT received, ${formatUsdt(receivedMicroUsdt)} of ${formatUsdt(deposit.expected_micro_usdt)} in all`,
    changes: {
      credited_micros: order.credited_micros + creditMicros,
      ...(decision.isLate
        ? { is_paid_after_expiry: 1, review_reason: `USDT received after the order was ${order.status}; credited` }
        : {}),
    },
  });
  return { kind: 'applied', orderId: order.id, status: decision.to };
}

/** 12_500_000 micro-USDT → "12.5": USDT as a person reads it, exact. */
export function formatUsdt(microUsdt: number): string {
  const whole = Math.trunc(microUsdt / 1_000_000);
  const fraction = String(Math.abs(microUsdt % 1_000_000))
    .padStart(6, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}
