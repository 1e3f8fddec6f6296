import { formatUsd } from '../lib/money.ts';

/**
 * Why a paid call is refused when the balance is below zero, or undefined when it is not. Holds never let calls or
 * debits overdraw, so a negative balance can only come from a top-up refunded or charged back after it was spent
 * (docs/payments.md); the 402 says so instead of a bare "0 USD available".
 */
export function negativeBalanceMessage(availableMicros: number): string | undefined {
  if (availableMicros >= 0) return undefined;
  return `Your balance is ${formatUsd(availableMicros)} USD because a top-up was refunded or charged back after it was spent. Paid calls resume once a top-up of at least ${formatUsd(-availableMicros)} USD brings the balance above zero.`;
}
