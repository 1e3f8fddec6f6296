import type { TopUpRequest } from '../../../../contract/payments.ts';

/** One way to pay shown on the top-up panel: the method id the API takes and the currency it pays in. */
export type TopUpMethod = {
  id: TopUpRequest['method'];
  currency: TopUpRequest['currency'];
  /** Digits after the decimal point of the currency's minor unit (kopecks, cents). */
  minorDigits: number;
};

/**
 * The methods the panel offers, in the order shown; their labels are `messages.topUp.methods[id]`. A new method is
 * one entry here (and its label), once the contract's method and currency lists take it.
 */
export const topUpMethods: readonly TopUpMethod[] = [
  { id: 'card_rub', currency: 'RUB', minorDigits: 2 },
  { id: 'sbp', currency: 'RUB', minorDigits: 2 },
  { id: 'yoo_money', currency: 'RUB', minorDigits: 2 },
  { id: 'card_usd', currency: 'USD', minorDigits: 2 },
  // Priced in USD cents; the order asks for the same number of USDT (1:1 or the operator's rate).
  { id: 'usdt_trc20', currency: 'USD', minorDigits: 2 },
];

/** The methods of `topUpMethods` the gateway serves now (`GET /api/top-ups/methods`), in the panel's order. */
export function enabledTopUpMethods(enabled: readonly { method: string }[]): readonly TopUpMethod[] {
  const ids = new Set(enabled.map((one) => one.method));
  return topUpMethods.filter((method) => ids.has(method.id));
}
