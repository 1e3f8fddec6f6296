import { useEffect, useState } from 'react';
import type { TopUpQuoteView, TopUpRequest } from '../../../../contract/payments.ts';
import { quoteTopUp } from './top-up-api.ts';

export type QuoteState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; quote: TopUpQuoteView }
  | { status: 'error'; message: string };

const quoteDelayMs = 300;

/**
 * The server's quote for what is typed, asked a moment after typing stops (the previous question is aborted), so
 * the figure shown is the rate an order made now would lock. No request while the amount is not a valid one.
 */
export function useTopUpQuote(request: TopUpRequest | undefined): QuoteState {
  const [state, setState] = useState<QuoteState>({ status: 'idle' });
  const key = request ? `${request.method}:${request.currency}:${request.amount_minor}` : '';
  useEffect(() => {
    if (!request) {
      setState({ status: 'idle' });
      return undefined;
    }
    setState({ status: 'loading' });
    const controller = new AbortController();
    const timer = setTimeout(() => {
      quoteTopUp(request, { signal: controller.signal }).then(
        (quote) => {
          if (!controller.signal.aborted) setState({ status: 'ready', quote });
        },
        (error: unknown) => {
          if (!controller.signal.aborted) {
            setState({ status: 'error', message: error instanceof Error ? error.message : String(error) });
          }
        },
      );
    }, quoteDelayMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // `request` is a new object on every render; `key` names what the quote depends on.
  }, [key]);
  return state;
}
