const microsPerUsd = 1_000_000;

/**
 * A USD amount from the API as "$1.25", exactly. The API sends whole micro-dollar amounts as numbers
 * (e.g. 0.042), so the amount is taken back to integer micros and printed digit by digit: no float artefacts,
 * at least two decimals, up to six, trailing zeros dropped past the cents ("$0.15", "$2.00", "$0.0375").
 * Thousands are grouped with commas.
 */
export function formatUsd(usd: number): string {
  const micros = Math.round(usd * microsPerUsd);
  const sign = micros < 0 ? '-' : '';
  const absoluteMicros = Math.abs(micros);
  const whole = Math.floor(absoluteMicros / microsPerUsd);
  const fraction = String(absoluteMicros % microsPerUsd)
    .padStart(6, '0')
    .replace(/0{1,4}$/, '');
  return `${sign}$${groupThousands(whole)}.${fraction.padEnd(2, '0')}`;
}

/** A percentage from the API (at most two decimals) as "20%", "12.5%" or "-3.25%". */
export function formatPercent(percent: number): string {
  const hundredths = Math.round(percent * 100);
  const sign = hundredths < 0 ? '-' : '';
  const absolute = Math.abs(hundredths);
  const fraction = String(absolute % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return `${sign}${Math.floor(absolute / 100)}${fraction ? `.${fraction}` : ''}%`;
}

function groupThousands(whole: number): string {
  return String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
