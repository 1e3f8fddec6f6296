import type { InputUnit } from './conversation.ts';
import { countInputTokens } from './count-input-tokens.ts';
import { hashText } from './random.ts';

/**
 * How a vendor caches prompts. `automatic`: any previously seen prefix of whole units is read from the cache
 * (OpenAI, DeepSeek, Gemini implicit caching), rounded down to `granularityTokens`. `explicit`: only prefixes ending
 * at a `cache_control` breakpoint are written and read (Anthropic).
 */
export type CachePolicy =
  | { kind: 'none' }
  | { kind: 'automatic'; minimumTokens: number; granularityTokens: number }
  | { kind: 'explicit'; minimumTokens: number; breakpoints: readonly number[] };

export type CacheResult = { readTokens: number; writeTokens: number };

/** The set of prompt prefixes seen so far, as hashes only: no request text is kept. */
export type PromptCache = {
  lookUpAndRemember: (input: { namespace: string; units: readonly InputUnit[]; policy: CachePolicy }) => CacheResult;
  clear: () => void;
};

export function createPromptCache(): PromptCache {
  const seenPrefixes = new Set<string>();
  const maximumEntries = 100_000;
  return {
    clear: () => seenPrefixes.clear(),
    lookUpAndRemember: ({ namespace, units, policy }) => {
      if (policy.kind === 'none') return { readTokens: 0, writeTokens: 0 };
      const prefixHashes = hashPrefixes(namespace, units);
      const prefixTokens = (endIndex: number) => countInputTokens(units.slice(0, endIndex + 1));
      if (seenPrefixes.size > maximumEntries) seenPrefixes.clear();
      if (policy.kind === 'automatic') {
        let readTokens = 0;
        for (let index = units.length - 1; index >= 0; index -= 1) {
          if (seenPrefixes.has(prefixHashes[index] ?? '')) {
            readTokens = roundDown(prefixTokens(index), policy.granularityTokens);
            break;
          }
        }
        prefixHashes.forEach((hash, index) => {
          if (prefixTokens(index) >= policy.minimumTokens) seenPrefixes.add(hash);
        });
        return { readTokens: readTokens >= policy.minimumTokens ? readTokens : 0, writeTokens: 0 };
      }
      const breakpoints = policy.breakpoints.filter((index) => prefixTokens(index) >= policy.minimumTokens);
      const lastBreakpoint = breakpoints.at(-1);
      if (lastBreakpoint === undefined) return { readTokens: 0, writeTokens: 0 };
      const hitBreakpoint = [...breakpoints].reverse().find((index) => seenPrefixes.has(prefixHashes[index] ?? ''));
      const readTokens = hitBreakpoint === undefined ? 0 : prefixTokens(hitBreakpoint);
      for (const index of breakpoints) seenPrefixes.add(prefixHashes[index] ?? '');
      return { readTokens, writeTokens: prefixTokens(lastBreakpoint) - readTokens };
    },
  };
}

function hashPrefixes(namespace: string, units: readonly InputUnit[]): string[] {
  const hashes: string[] = [];
  let previous = hashText(namespace);
  for (const unit of units) {
    previous = hashText(`${previous}\u0000${unit.isMessage ? 'm' : 't'}${unit.imageCount}\u0000${unit.text}`);
    hashes.push(previous);
  }
  return hashes;
}

function roundDown(tokens: number, granularity: number): number {
  return granularity > 1 ? Math.floor(tokens / granularity) * granularity : tokens;
}
