import type { TopUpOrderStatus } from '../db/schema.ts';

/**
 * The top-up order state machine (docs/payments.md §States), the one place that says which moves are allowed:
 *
 *   created ──payment_created──▶ pending ──succeeded──▶ succeeded ──refunded──▶ partially_refunded ──▶ refunded
 *      │                           │                        │                          │
 *      ├──canceled / provider_failed / expired ◀────────────┘ (not from succeeded)     └──charged_back──▶ charged_back
 *      └──received (USDT, less than asked)──▶ partially_paid ──received (the rest)──▶ succeeded
 *
 * A success that arrives after the order was canceled or expired is still money the user paid: it credits, and the
 * order is flagged (`isLate`) for the operator. A chargeback closed in our favour returns the order to where it was.
 */
export type OrderEvent =
  | { kind: 'payment_created' }
  | { kind: 'provider_failed' }
  | { kind: 'succeeded' }
  | { kind: 'canceled' }
  | { kind: 'expired' }
  /** `isWhollyReturned`: the refunds and chargebacks so far, this one included, return the whole amount paid. */
  | { kind: 'refunded'; isWhollyReturned: boolean }
  | { kind: 'charged_back' }
  /** `hasRefunds`: some of the order was refunded before the dispute. */
  | { kind: 'chargeback_reversed'; hasRefunds: boolean }
  /** USDT reached the order's address; `isFullyPaid`: everything received so far covers the amount asked. */
  | { kind: 'received'; isFullyPaid: boolean };

export type OrderDecision =
  /** Move to `to` (which may equal the current status for a further partial refund). */
  | { kind: 'move'; to: TopUpOrderStatus; isLate: boolean }
  /** The order is already where this event would take it: nothing to do (a repeat). */
  | { kind: 'unchanged' }
  /** The event cannot apply now; `reason` says why (for the log and the operator). */
  | { kind: 'refused'; reason: 'not_credited' | 'already_final' | 'not_charged_back' };

const creditedStatuses: readonly TopUpOrderStatus[] = [
  'succeeded',
  'partially_refunded',
  'refunded',
  'charged_back',
  'partially_paid',
];
const waitingStatuses: readonly TopUpOrderStatus[] = ['created', 'pending'];

/** Whether the order's money reached the balance (whatever was returned later). */
export function isCreditedStatus(status: TopUpOrderStatus): boolean {
  return creditedStatuses.includes(status);
}

/** Whether the order still waits for the provider (reconciliation polls these). */
export function isWaitingStatus(status: TopUpOrderStatus): boolean {
  return waitingStatuses.includes(status);
}

export function decideOrderTransition(current: TopUpOrderStatus, event: OrderEvent): OrderDecision {
  switch (event.kind) {
    case 'payment_created':
      if (current === 'created') return move('pending');
      return current === 'pending' ? { kind: 'unchanged' } : { kind: 'refused', reason: 'already_final' };
    case 'provider_failed':
    case 'canceled':
    case 'expired':
      return closeWithoutPayment(current, event.kind === 'expired' ? 'expired' : 'canceled');
    case 'succeeded':
      if (isWaitingStatus(current)) return move('succeeded');
      if (current === 'canceled' || current === 'expired') return { kind: 'move', to: 'succeeded', isLate: true };
      return { kind: 'unchanged' };
    case 'refunded':
      if (!isCreditedStatus(current)) return { kind: 'refused', reason: 'not_credited' };
      return move(
        event.isWhollyReturned ? 'refunded' : current === 'charged_back' ? 'charged_back' : 'partially_refunded',
      );
    case 'charged_back':
      if (!isCreditedStatus(current)) return { kind: 'refused', reason: 'not_credited' };
      return move('charged_back');
    case 'chargeback_reversed':
      if (current !== 'charged_back') return { kind: 'refused', reason: 'not_charged_back' };
      return move(event.hasRefunds ? 'partially_refunded' : 'succeeded');
    case 'received':
      return decideReceipt(current, event.isFullyPaid);
    default:
      return assertNever(event);
  }
}

/**
 * USDT is credited whenever it arrives (a crypto transfer cannot be refused): a waiting or partially paid order
 * moves by what it has received so far, a closed one does too but flagged late, and a credited order stays where
 * it is (a second transfer to the same address is credited on its own).
 */
function decideReceipt(current: TopUpOrderStatus, isFullyPaid: boolean): OrderDecision {
  const to = isFullyPaid ? 'succeeded' : 'partially_paid';
  if (isWaitingStatus(current) || current === 'partially_paid') return move(to);
  if (current === 'canceled' || current === 'expired') return { kind: 'move', to, isLate: true };
  return move(current);
}

function closeWithoutPayment(current: TopUpOrderStatus, to: 'canceled' | 'expired'): OrderDecision {
  if (isWaitingStatus(current)) return move(to);
  if (current === to) return { kind: 'unchanged' };
  return { kind: 'refused', reason: 'already_final' };
}

function move(to: TopUpOrderStatus): OrderDecision {
  return { kind: 'move', to, isLate: false };
}

function assertNever(value: never): never {
  throw new Error(`unhandled order event ${JSON.stringify(value)}`);
}
