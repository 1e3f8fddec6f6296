import type { Messages } from '../../i18n/messages-en.ts';

/** Where a locked rate came from, in words: `cbr:2026-11-26` → "Central Bank of Russia, 2026-11-26". */
export function formatRateSource(source: string, text: Messages['topUp']): string {
  if (source === 'fixed') return text.rateSourceFixed;
  if (source === 'usd') return text.rateSourceUsd;
  if (source.startsWith('cbr:')) return text.rateSourceCbr(source.slice('cbr:'.length));
  return source;
}
