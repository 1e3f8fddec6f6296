/**
 * Exact conversions between our integer minor units and the providers' decimal amounts ("1234.56", 1234.56). Done on
 * digits, never by multiplying floats, so 1,234.56 RUB is always 123456 kopecks.
 */

const decimalPattern = /^(\d{1,15})(?:\.(\d{1,2}))?$/;

/** 123456 → "1234.56" (both currencies used here have two decimal places). */
export function formatMinorUnits(minorUnits: number): string {
  if (!Number.isSafeInteger(minorUnits) || minorUnits < 0) {
    throw new RangeError(`an amount must be a non-negative integer of minor units, got ${minorUnits}`);
  }
  const whole = Math.floor(minorUnits / 100);
  const fraction = String(minorUnits % 100).padStart(2, '0');
  return `${whole}.${fraction}`;
}

/** "1234.56" or "1234.5" or "1234" → 123456; undefined for anything else (more decimals, signs, exponents). */
export function parseDecimalAmount(text: string): number | undefined {
  const match = decimalPattern.exec(text);
  if (!match?.[1]) return undefined;
  const fraction = (match[2] ?? '').padEnd(2, '0');
  return Number(match[1]) * 100 + Number(fraction);
}

/**
 * A JSON number amount (CloudPayments writes 1234.56) → minor units. A number's shortest decimal form is what the
 * provider wrote, so it is read as text; a value with more than two decimals is refused rather than rounded.
 */
export function parseNumberAmount(value: number): number | undefined {
  if (!Number.isFinite(value) || value < 0) return undefined;
  return parseDecimalAmount(String(value));
}
