const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 6,
});

/** The money oracle, independent of the app's formatter: Intl, up to six decimals, at least cents. */
export function usdText(amountUsd: number): string {
  return usd.format(amountUsd);
}
