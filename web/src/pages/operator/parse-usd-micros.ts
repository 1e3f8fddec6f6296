/** A decimal USD amount typed by the operator ("12.5") → exact micro-USD; undefined when it is not one. */
export function parseUsdMicros(text: string): number | undefined {
  const match = /^(\d{1,12})(?:[.,](\d{1,6}))?$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * 1_000_000 + Number((match[2] ?? '').padEnd(6, '0'));
}
