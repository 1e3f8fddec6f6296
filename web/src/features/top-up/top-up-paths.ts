import { routePaths } from '../../router/match-route.ts';

/** The return page for an order; the provider sends the payer back to this same address. */
export const topUpReturnPath = (orderId: string): string =>
  `${routePaths.topUpReturn}?order=${encodeURIComponent(orderId)}`;

/** The printable receipt of a paid order. */
export const topUpReceiptPath = (orderId: string): string =>
  `${routePaths.topUpReceipt}?order=${encodeURIComponent(orderId)}`;
