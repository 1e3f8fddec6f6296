import type { TopUpOrderStatus } from '../db/schema.ts';

/**
 * The top-up order state machine (docs/payments.md §States), the one place that says which moves are allowed:
 *
 *   created ──payment_created──▶ pending ──succeeded──▶ succeeded ──refunded──▶ partially_refunded ──▶ refunded
 *      │                           │                        │                          │
 *      ├──canceled / provider_failed / expired ◀────────────┘ (not from succeeded)     └──charged_back──▶ charged_back
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
  | { kind: 'chargeback_reversed'; hasRefunds: boolean };

export type OrderDecision =
  /** Move to `to` (which may equal the current status for a further partial refund). */
  | { kind: 'move'; to: TopUpOrderStatus; isLate: boolean }
  /** The order is already where this event would take it: nothing to do (a repeat). */
  | { kind: 'unchanged' }
  /** The event cannot apply now; `reason` says why (for the log and the operator). */
  | { kind: 'refused'; reason: 'not_credited' | 'already_final' | 'not_charged_back' };

const creditedStatuses: readonly TopUpOrderStatus[] = ['succeeded', 'partially_refunded', 'refunded', 'charged_back'];
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
    default:
      return assertNever(event);
  }
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
