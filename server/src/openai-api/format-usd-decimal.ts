import { MICROS_PER_USD, TOKENS_PER_RATE_UNIT } from '../lib/money.ts';

/**
 * Plain decimal USD strings for OpenRouter-style `pricing` fields: exact, with no exponent ("0.0000008", never
 * "8e-7") and no trailing zeros. Computed from the integer micros by shifting the decimal point, never a float.
 */
export function formatUsdDecimal(micros: number): string {
  return shiftDecimalPoint(micros, String(MICROS_PER_USD).length - 1);
}

/** A rate in micro-USD per 1M tokens as USD per token. */
export function formatUsdPerToken(ratePerMillionMicros: number): string {
  return shiftDecimalPoint(
    ratePerMillionMicros,
    String(MICROS_PER_USD).length - 1 + String(TOKENS_PER_RATE_UNIT).length - 1,
  );
}

/** `value` × 10^-`places` as a decimal string. */
function shiftDecimalPoint(value: number, places: number): string {
  if (!Number.isSafeInteger(value)) throw new RangeError(`not an integer amount: ${value}`);
  const sign = value < 0 ? '-' : '';
  const digits = String(Math.abs(value)).padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const fraction = digits.slice(digits.length - places).replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}
