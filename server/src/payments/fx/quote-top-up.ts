import type { FiatAmount, PaymentCurrency } from '../payment-provider.ts';

const BASIS_POINTS_PER_WHOLE = 10_000n;
/** Micro-units per unit of a currency, and minor units per unit (kopecks, cents). */
const MICROS_PER_UNIT = 1_000_000n;
const MINOR_UNITS_PER_UNIT = 100n;

/** The rate a top-up is converted at: micro-units of the pay currency per 1 USD, and where it came from. */
export type LockedRate = {
  currency: PaymentCurrency;
  microsPerUsd: number;
  /** `cbr:<date>`, `fixed` (the operator's own rate) or `usd` (no conversion). */
  source: string;
  /** The operator's markup on top of the source rate, in basis points (300 = 3%); 0 for a fixed rate and for USD. */
  markupBasisPoints: number;
};

export const usdRate: LockedRate = { currency: 'USD', microsPerUsd: 1_000_000, source: 'usd', markupBasisPoints: 0 };

/**
 * The USD a payment credits, in micro-USD, rounded **down** (the user never gets a fraction the operator did not
 * receive; the loss is under one micro-USD):
 *
 *   credit_micros = floor( minor × (10⁶ / 100) × 10⁶ × 10,000 / (rate_micros_per_usd × (10,000 + markup_bp)) )
 *
 * e.g. 1,000.00 RUB (100,000 kopecks) at the CBR's 92.2821 RUB/USD plus a 3% markup (rate 92,282,100, 300 bp):
 * floor(100,000 × 10⁴ × 10⁶ × 10,000 / (92,282,100 × 10,300)) = 10,520,716 micro-USD, shown as 10.52 USD. For USD
 * the rate is 10⁶ and the markup 0: 500 cents → 5,000,000 micro-USD exactly. BigInt throughout: no float.
 */
export function creditMicrosFor(amount: FiatAmount, rate: LockedRate): number {
  if (amount.currency !== rate.currency) throw new Error(`a ${amount.currency} amount at a ${rate.currency} rate`);
  const numerator =
    BigInt(amount.minorUnits) * (MICROS_PER_UNIT / MINOR_UNITS_PER_UNIT) * MICROS_PER_UNIT * BASIS_POINTS_PER_WHOLE;
  const divisor = BigInt(rate.microsPerUsd) * (BASIS_POINTS_PER_WHOLE + BigInt(rate.markupBasisPoints));
  return Number(numerator / divisor);
}

/**
 * The share of an order's credit that `returnedMinorUnits` (all refunds and chargebacks so far) take back, rounded
 * **up** and never above the credit, so partial refunds summing to the whole payment take back exactly the credit.
 */
export function returnedMicrosFor(input: {
  creditMicros: number;
  payMinorUnits: number;
  returnedMinorUnits: number;
}): number {
  if (input.returnedMinorUnits >= input.payMinorUnits) return input.creditMicros;
  const numerator = BigInt(input.creditMicros) * BigInt(input.returnedMinorUnits);
  const divisor = BigInt(input.payMinorUnits);
  return Number((numerator + divisor - 1n) / divisor);
}

/** The effective rate the user sees (source rate with markup), in micro-units per USD, rounded to nearest. */
export function effectiveMicrosPerUsd(rate: LockedRate): number {
  const scaled = BigInt(rate.microsPerUsd) * (BASIS_POINTS_PER_WHOLE + BigInt(rate.markupBasisPoints));
  return Number((scaled + BASIS_POINTS_PER_WHOLE / 2n) / BASIS_POINTS_PER_WHOLE);
}
