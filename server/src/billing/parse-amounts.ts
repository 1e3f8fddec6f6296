import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { parseUsdToMicros } from '../lib/money.ts';

/**
 * A decimal USD amount from the operator API (a string, or a JSON number read as its decimal text) → exact
 * micro-USD, never through a float. Negative, non-numeric or over six decimals: a 400 naming the field.
 */
export function parseUsdAmountMicros(value: string | number, param: string): number {
  const micros = parseUsdToMicros(String(value));
  if (micros === undefined || micros < 0) {
    throw new InvalidRequestError(
      `\`${param}\` must be a non-negative USD amount with at most six decimals, such as "2.5".`,
      { param },
    );
  }
  return micros;
}

/** The same for an optional field: undefined stays undefined (keep the value), null stays null (clear it). */
export function parseOptionalUsdAmountMicros(
  value: string | number | null | undefined,
  param: string,
): number | null | undefined {
  if (value === undefined || value === null) return value;
  return parseUsdAmountMicros(value, param);
}

/** A percentage with at most two decimals (checked by the contract schema) → basis points (100 = 1%). */
export function percentToBasisPoints(percent: number): number {
  return Math.round(percent * 100);
}
