import { createHash } from 'node:crypto';

/** A seeded pseudo-random source: the same seed always yields the same sequence, so answers are reproducible. */
export type Random = {
  nextInt: (maxExclusive: number) => number;
  nextFloat: () => number;
  pick: <Item>(items: readonly Item[]) => Item;
  nextString: (alphabet: string, length: number) => string;
};

export function hashText(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function createRandom(seedText: string): Random {
  const digest = createHash('sha256').update(seedText).digest();
  let state = digest.readUInt32LE(0);
  // mulberry32: tiny, fast and good enough for picking words and ids.
  const nextFloat = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
  const nextInt = (maxExclusive: number): number => Math.floor(nextFloat() * maxExclusive);
  const pick = <Item>(items: readonly Item[]): Item => {
    const item = items[nextInt(items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  };
  const nextString = (alphabet: string, length: number): string => {
    let text = '';
    for (let index = 0; index < length; index += 1) text += alphabet.charAt(nextInt(alphabet.length));
    return text;
  };
  return { nextInt, nextFloat, pick, nextString };
}

export const alphanumeric = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const lowerHex = '0123456789abcdef';
