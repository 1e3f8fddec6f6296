import { sql, type Transaction } from 'kysely';
import { creditWelcomeBalance } from '../billing/credit-welcome-balance.ts';
import { userLedgerAccount, writeLedgerTransaction, type LedgerTransaction } from '../db/ledger.ts';
import type { DatabaseSchema, TopUpOrderRow, TopUpOrderStatus } from '../db/schema.ts';
import { insertTopUpOrderTransition } from '../db/top-up-order-transitions.ts';
import { updateTopUpOrder, type TopUpOrderChanges } from '../db/top-up-orders.ts';
import type { Clock } from '../lib/clock.ts';
import type { IdGenerator } from '../lib/ids.ts';
import type { PaymentEventOutcome } from './apply-payment-event.ts';

export type OrderWriteDeps = {
  clock: Clock;
  ids: IdGenerator;
  /** Set when the welcome balance waits for the first payment (`WELCOME_BALANCE_AT=first-payment`). */
  welcomeOnFirstPayment?: { amountMicros: number } | undefined;
};
type Trx = Transaction<DatabaseSchema>;

/** The operator's side of a provider's top-ups; sandbox money is booked apart so it never mixes with real revenue. */
export function topUpClearingAccount(order: Pick<TopUpOrderRow, 'provider' | 'is_sandbox'>): string {
  return order.is_sandbox === 1 ? `system:sandbox-top-ups:${order.provider}` : `system:top-ups:${order.provider}`;
}

/** The idempotency key of an order's credit: one per provider payment, whoever notices the payment first. */
export function topUpLedgerKey(order: Pick<TopUpOrderRow, 'id' | 'provider' | 'provider_payment_id'>): string {
  return order.provider_payment_id === null
    ? `topup:${order.provider}:order:${order.id}`
    : `topup:${order.provider}:${order.provider_payment_id}`;
}

/** Sets the order's status and other columns, and records the transition with its cause, in `trx`. */
export async function moveOrder(
  deps: OrderWriteDeps,
  trx: Trx,
  input: { order: TopUpOrderRow; to: TopUpOrderStatus; cause: string; changes?: TopUpOrderChanges },
): Promise<void> {
  const at = deps.clock.nowMs();
  await updateTopUpOrder(trx, { id: input.order.id, changes: { ...input.changes, status: input.to, updated_at: at } });
  await insertTopUpOrderTransition(trx, {
    id: deps.ids.newId('tpt_'),
    order_id: input.order.id,
    from_status: input.order.status,
    to_status: input.to,
    cause: input.cause,
    at,
  });
}

/**
 * Moves `signedMicros` between the user's balance and the provider's clearing account (positive credits the user),
 * once per key, and tells every node to reload balances. Returns false when the key was used before.
 */
export async function writeOrderLedger(
  deps: OrderWriteDeps,
  trx: Trx,
  input: {
    order: TopUpOrderRow;
    idempotencyKey: string;
    kind: LedgerTransaction['kind'];
    reason: string;
    signedMicros: number;
  },
): Promise<boolean> {
  const isWritten = await writeLedgerTransaction(trx, {
    id: deps.ids.newId('ltx_'),
    idempotencyKey: input.idempotencyKey,
    kind: input.kind,
    reason: input.order.is_sandbox === 1 ? `sandbox ${input.reason}` : input.reason,
    createdAt: deps.clock.nowMs(),
    entries: [
      { account: userLedgerAccount(input.order.user_id), amountMicros: input.signedMicros },
      { account: topUpClearingAccount(input.order), amountMicros: -input.signedMicros },
    ],
  });
  if (isWritten && input.signedMicros > 0 && deps.welcomeOnFirstPayment) {
    // Keyed per account like every welcome credit, so only the first credited payment brings it.
    await creditWelcomeBalance(trx, {
      userId: input.order.user_id,
      amountMicros: deps.welcomeOnFirstPayment.amountMicros,
      transactionId: deps.ids.newId('ltx_'),
      nowMs: deps.clock.nowMs(),
    });
  }
  if (isWritten) {
    await trx
      .updateTable('cache_versions')
      .set({ version: sql<number>`version + 1` })
      .where('name', '=', 'balances')
      .execute();
  }
  return isWritten;
}

/** Marks the order for the operator's review with `reason` and credits nothing. */
export async function flagOrder(
  trx: Trx,
  input: { order: TopUpOrderRow; reason: string; at: number },
): Promise<PaymentEventOutcome> {
  await updateTopUpOrder(trx, { id: input.order.id, changes: { review_reason: input.reason, updated_at: input.at } });
  return { kind: 'flagged', orderId: input.order.id, reason: input.reason };
}
