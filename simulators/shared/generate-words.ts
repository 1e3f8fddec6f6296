import type { Random } from './random.ts';

// "café" and "naïve" are deliberate: their UTF-8 byte length differs from their character length, which exercises
// the byte-offset → character-offset conversion that Gemini citations need (docs/reference/gemini.md §Response).
const vocabulary = [
  'amber',
  'river',
  'quiet',
  'lantern',
  'meadow',
  'signal',
  'harbor',
  'copper',
  'gentle',
  'orbit',
  'canvas',
  'pillar',
  'marble',
  'echo',
  'thistle',
  'summit',
  'velvet',
  'compass',
  'willow',
  'granite',
  'ember',
  'falcon',
  'horizon',
  'island',
  'juniper',
  'kettle',
  'ledger',
  'mosaic',
  'nectar',
  'oasis',
  'prism',
  'quartz',
  'ripple',
  'saffron',
  'timber',
  'umbra',
  'vessel',
  'wander',
  'yonder',
  'zephyr',
  'bright',
  'steady',
  'careful',
  'simple',
  'clear',
  'the',
  'a',
  'of',
  'and',
  'to',
  'with',
  'under',
  'across',
  'beyond',
  'near',
  'every',
  'some',
  'many',
  'small',
  'large',
  'early',
  'late',
  'north',
  'south',
  'café',
  'naïve',
  'moves',
  'holds',
  'keeps',
  'finds',
  'shows',
  'turns',
] as const;

/**
 * Deterministic prose as a list of tokens: one word per token, each after the first with its leading space, sentences
 * capitalised and closed with a full stop. Joining the tokens gives the text; the token count is the usage.
 */
export function generateWordTokens(random: Random, count: number): string[] {
  const tokens: string[] = [];
  let sentenceLength = 0;
  let sentenceTarget = 6 + random.nextInt(6);
  for (let index = 0; index < count; index += 1) {
    let word: string = random.pick(vocabulary);
    if (sentenceLength === 0) word = word.charAt(0).toUpperCase() + word.slice(1);
    sentenceLength += 1;
    const isLast = index === count - 1;
    if (sentenceLength >= sentenceTarget || isLast) {
      word += '.';
      sentenceLength = 0;
      sentenceTarget = 6 + random.nextInt(6);
    }
    tokens.push(index === 0 ? word : ` ${word}`);
  }
  return tokens;
}

/** Short lowercase phrase (search queries, titles): words only, no punctuation. */
export function generatePhrase(random: Random, wordCount: number): string {
  const words: string[] = [];
  for (let index = 0; index < wordCount; index += 1) words.push(random.pick(vocabulary));
  return words.join(' ');
}

export const refusalTokens: readonly string[] = ["I'm", ' sorry,', ' but', ' I', " can't", ' help', ' with', ' that.'];
