/**
 * Money is an integer number of micro-USD (1 USD = 1,000,000 micros). Rates are integer micro-USD per 1M tokens;
 * discounts are integer basis points (100 = 1%).
 *
 * The one rounding rule: the cost of a request is the exact rational sum of its parts, the account's discount
 * included, rounded **up** to the next whole micro-USD, once per request:
 *
 *   cost = ceil( Σ tokens × rate × share × (10,000 − discount) / (1,000,000 × 10,000 × 10,000) )
 *
 * where a part's `share` of its rate is 10,000 (the rate itself) except for prompt-cache writes, which vendors bill
 * at a multiple of the input rate (12,500 for Anthropic's 1.25×).
 *
 * Rounding up never undercharges the operator, and the error is below one millionth of a dollar per request.
 */
export const MICROS_PER_USD = 1_000_000;
export const TOKENS_PER_RATE_UNIT = 1_000_000;
const BASIS_POINTS_PER_WHOLE = 10_000;

/** Tokens at a rate; `rateShareBasisPoints` bills them at a share of it (10,000, the default, is the rate itself). */
export type TokenCharge = { tokens: number; ratePerMillionMicros: number; rateShareBasisPoints?: number | undefined };

/** A discount in basis points; 0 when the account has none. */
export type CostOptions = { discountBasisPoints?: number | undefined };

/** Cost in micro-USD of several token counts at their rates, less the discount, rounded up once. */
export function costOfTokensMicros(charges: readonly TokenCharge[], options: CostOptions = {}): number {
  const small = costInSafeIntegers(charges, options);
  if (small !== undefined) return small;
  const { numerator, divisor } = exactCost(charges, options);
  return Number(ceilDivide(numerator, divisor));
}

/**
 * The same cost with plain numbers, when every product and sum is a safe integer (below 2^53, where arithmetic on
 * JavaScript numbers is exact): the common case once the factors every part shares are left out of both sides (the
 * full share of the rate, no discount). Undefined otherwise, for the BigInt path. A call's cost is computed on every
 * answer; this keeps its arithmetic off the heap.
 */
function costInSafeIntegers(charges: readonly TokenCharge[], options: CostOptions): number | undefined {
  const kept = Number(keptBasisPoints(options));
  let isFullShare = true;
  for (const charge of charges) {
    const share = charge.rateShareBasisPoints ?? BASIS_POINTS_PER_WHOLE;
    if (!Number.isInteger(share) || share < 0) return undefined;
    if (share !== BASIS_POINTS_PER_WHOLE) isFullShare = false;
  }
  let numerator = 0;
  for (const charge of charges) {
    const share = isFullShare ? 1 : (charge.rateShareBasisPoints ?? BASIS_POINTS_PER_WHOLE);
    const part = charge.tokens * charge.ratePerMillionMicros * share;
    if (!Number.isSafeInteger(part)) return undefined;
    numerator += part;
  }
  let divisor = isFullShare ? TOKENS_PER_RATE_UNIT : TOKENS_PER_RATE_UNIT * BASIS_POINTS_PER_WHOLE;
  if (kept !== BASIS_POINTS_PER_WHOLE) {
    numerator *= kept;
    divisor *= BASIS_POINTS_PER_WHOLE;
  }
  if (!Number.isSafeInteger(numerator) || numerator < 0) return undefined;
  // `%` of two safe integers is exact, and so is the division of the multiple left.
  const remainder = numerator % divisor;
  return (numerator - remainder) / divisor + (remainder > 0 ? 1 : 0);
}

/**
 * The largest number of tokens at `ratePerMillionMicros` that can be added to `fixedCharges` while the cost (by the
 * rule above) stays within `budgetMicros`; 0 when not even the fixed charges fit. The exact inverse of
 * `costOfTokensMicros`, so a limit computed here is never one token too generous.
 */
export function maxTokensWithinMicros(input: {
  budgetMicros: number;
  fixedCharges: readonly TokenCharge[];
  ratePerMillionMicros: number;
  discountBasisPoints?: number | undefined;
}): number {
  const fixed = exactCost(input.fixedCharges, input);
  const keptShare = keptBasisPoints(input);
  const perToken = BigInt(input.ratePerMillionMicros) * BigInt(BASIS_POINTS_PER_WHOLE) * keptShare;
  if (perToken === 0n) return Number.MAX_SAFE_INTEGER;
  // cost ≤ budget ⇔ fixed + n × perToken ≤ budget × divisor (the ceiling of a sum is ≤ an integer iff the sum is).
  const room = BigInt(input.budgetMicros) * fixed.divisor - fixed.numerator;
  if (room < 0n) return 0;
  const tokens = room / perToken;
  return tokens > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(tokens);
}

/**
 * Applies a discount in basis points to a **price** (a rate or a per-request price being set), rounding up so the
 * operator never loses a fraction. Costs of calls never go through this: they use `costOfTokensMicros`, which
 * applies the discount inside its single rounding.
 */
export function applyDiscountMicros(amountMicros: number, discountBasisPoints: number): number {
  const numerator = BigInt(amountMicros) * BigInt(BASIS_POINTS_PER_WHOLE - discountBasisPoints);
  return Number(ceilDivide(numerator, BigInt(BASIS_POINTS_PER_WHOLE)));
}

/**
 * Parses a decimal USD string ("12.5", "0.000001") into micros exactly; undefined when it is not one. At most nine
 * whole digits (under one billion USD, 10^15 micros), so every amount and any sum of a few of them stays far below
 * 2^53, where JavaScript numbers stop being exact integers.
 */
export function parseUsdToMicros(text: string): number | undefined {
  const match = /^(-?)(\d{1,9})(?:\.(\d{1,6}))?$/.exec(text.trim());
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

function keptBasisPoints(options: CostOptions): bigint {
  const discount = options.discountBasisPoints ?? 0;
  if (!Number.isInteger(discount) || discount < 0 || discount > BASIS_POINTS_PER_WHOLE) {
    throw new RangeError(`a discount must be 0 to 10000 basis points, not ${discount}`);
  }
  return BigInt(BASIS_POINTS_PER_WHOLE - discount);
}

function exactCost(charges: readonly TokenCharge[], options: CostOptions): { numerator: bigint; divisor: bigint } {
  let sum = 0n;
  for (const charge of charges) {
    const share = charge.rateShareBasisPoints ?? BASIS_POINTS_PER_WHOLE;
    if (!Number.isInteger(share) || share < 0)
      throw new RangeError(`a rate share must be whole basis points, not ${share}`);
    sum += BigInt(charge.tokens) * BigInt(charge.ratePerMillionMicros) * BigInt(share);
  }
  return {
    numerator: sum * keptBasisPoints(options),
    divisor: BigInt(TOKENS_PER_RATE_UNIT) * BigInt(BASIS_POINTS_PER_WHOLE) * BigInt(BASIS_POINTS_PER_WHOLE),
  };
}

/** numerator / divisor rounded up, for non-negative integers. */
function ceilDivide(numerator: bigint, divisor: bigint): bigint {
  const whole = numerator / divisor;
  return numerator % divisor === 0n ? whole : whole + 1n;
}
