import { useEffect, useState } from 'react';
import type { TopUpOrderView } from '../../../../contract/payments.ts';
import { getTopUp } from './top-up-api.ts';

export type OrderState =
  { status: 'loading' } | { status: 'ready'; order: TopUpOrderView } | { status: 'error'; message: string };

/** Statuses an order leaves by itself (a notification, the reconciliation, the quote's expiry). */
const waitingStatuses: ReadonlySet<string> = new Set(['created', 'pending']);

export const isWaitingTopUp = (order: TopUpOrderView): boolean => waitingStatuses.has(order.status);

/**
 * One order, asked again every `pollMs` while it waits for its provider (each GET also checks the payment with the
 * provider, so a lost notification does not leave the page waiting) and never again once it has settled. A USDT
 * order passes its own `isWaiting`, since a partly paid one can still receive the rest.
 */
export function useTopUpOrder(
  orderId: string,
  pollMs: number,
  isWaiting: (order: TopUpOrderView) => boolean = isWaitingTopUp,
): OrderState {
  const [state, setState] = useState<OrderState>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = () => {
      getTopUp(orderId, { signal: controller.signal }).then(
        (order) => {
          if (controller.signal.aborted) return;
          setState({ status: 'ready', order });
          if (isWaiting(order)) timer = setTimeout(poll, pollMs);
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setState({ status: 'error', message: error instanceof Error ? error.message : String(error) });
        },
      );
    };
    poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [orderId, pollMs, isWaiting]);
  return state;
}
