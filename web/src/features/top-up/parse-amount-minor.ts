/**
 * An amount typed by a person ("1000", "1 000,50", "5.5") as whole minor units (kopecks, cents), read digit by
 * digit so no float is ever involved; undefined when it is not a positive amount with at most `minorDigits`
 * decimals.
 */
export function parseAmountMinor(text: string, minorDigits: number): number | undefined {
  const compact = text.replaceAll(/[\s\u00a0\u202f]/g, '').replace(',', '.');
  const match = /^(\d{1,12})(?:\.(\d*))?$/.exec(compact);
  if (!match) return undefined;
  const fraction = match[2] ?? '';
  if (fraction.length > minorDigits) return undefined;
  const minor = Number(`${match[1]}${fraction.padEnd(minorDigits, '0')}`);
  return minor > 0 ? minor : undefined;
}

/** Minor units as a grouped decimal with its currency: 100050 RUB → "1,000.50 RUB". */
export function formatMinor(minor: number, currency: string, minorDigits = 2): string {
  const scale = 10 ** minorDigits;
  const sign = minor < 0 ? '-' : '';
  const absolute = Math.abs(minor);
  const whole = String(Math.floor(absolute / scale)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = String(absolute % scale).padStart(minorDigits, '0');
  return `${sign}${whole}${minorDigits > 0 ? `.${fraction}` : ''} ${currency}`;
}
