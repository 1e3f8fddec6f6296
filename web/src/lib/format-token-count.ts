/** A token count in short form: 400,000 → "400K", 1,048,576 → "1.05M", 0 → "" (the caller shows a dash). */
export function formatTokenCount(tokens: number): string {
  if (tokens <= 0) return '';
  if (tokens >= 1_000_000) return `${trimDecimals(tokens / 1_000_000)}M`;
  if (tokens >= 1_000) return `${trimDecimals(tokens / 1_000)}K`;
  return String(tokens);
}

/** A token count in full with grouped digits, for titles: 1048576 → "1,048,576". */
export function formatTokenCountInFull(tokens: number): string {
  return String(tokens).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function trimDecimals(value: number): string {
  return (Math.round(value * 100) / 100).toFixed(2).replace(/\.?0+$/, '');
}
