/**
 * Money is an integer number of micro-USD (1 USD = 1,000,000 micros). Rates are integer micro-USD per 1M tokens.
 *
 * The one rounding rule: the cost of a request is the exact rational sum of its parts, rounded **up** to the next
 * whole micro-USD, once per request. Rounding up never undercharges the operator, and the error is below one
 * millionth of a dollar per request.
 */
export const MICROS_PER_USD = 1_000_000;
export const TOKENS_PER_RATE_UNIT = 1_000_000;

export type TokenCharge = { tokens: number; ratePerMillionMicros: number };

/** Cost in micro-USD of several token counts at their rates, rounded up once. */
export function costOfTokensMicros(charges: readonly TokenCharge[]): number {
  let numerator = 0n;
  for (const charge of charges) numerator += BigInt(charge.tokens) * BigInt(charge.ratePerMillionMicros);
  const divisor = BigInt(TOKENS_PER_RATE_UNIT);
  const whole = numerator / divisor;
  return Number(numerator % divisor === 0n ? whole : whole + 1n);
}

/** Applies a discount in basis points (100 = 1%) to an amount, rounding up (the operator never loses a fraction). */
export function applyDiscountMicros(amountMicros: number, discountBasisPoints: number): number {
  const numerator = BigInt(amountMicros) * BigInt(10_000 - discountBasisPoints);
  const whole = numerator / 10_000n;
  return Number(numerator % 10_000n === 0n ? whole : whole + 1n);
}

/** Parses a decimal USD string ("12.5", "0.000001") into micros exactly; undefined when it is not one. */
export function parseUsdToMicros(text: string): number | undefined {
  const match = /^(-?)(\d{1,12})(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!match) return undefined;
  const [, sign, whole = '0', fraction = ''] = match;
  const micros = Number(whole) * MICROS_PER_USD + Number(fraction.padEnd(6, '0'));
  return sign === '-' ? -micros : micros;
}

/** Micros as a USD number for wire fields such as `usage.cost` (exact for every integer micro amount). */
export function microsToUsd(micros: number): number {
  return micros / MICROS_PER_USD;
}

/** Micros as a fixed six-decimal USD string for display and CSV. */
export function formatUsd(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const absolute = Math.abs(micros);
  return `${sign}${Math.floor(absolute / MICROS_PER_USD)}.${String(absolute % MICROS_PER_USD).padStart(6, '0')}`;
}
