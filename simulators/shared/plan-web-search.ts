import { generatePhrase } from './generate-words.ts';
import type { Random } from './random.ts';

/** One simulated web search: the query, the pages found, and which answer sentences cite which page. */
export type SearchPlan = {
  query: string;
  sources: readonly SearchSource[];
  /** Token ranges `[startToken, endToken)` of the answer, each citing one source. */
  citations: readonly CitationSpan[];
  /** Search results are fed to the model as input, so vendors bill them as input tokens. */
  resultTokens: number;
};

export type SearchSource = { url: string; title: string; domain: string };
export type CitationSpan = { sourceIndex: number; startToken: number; endToken: number };

const sourceCount = 3;
const tokensPerResult = 120;
const sentenceTokens = 8;

export function planWebSearch(random: Random): SearchPlan {
  const sources: SearchSource[] = [];
  for (let index = 0; index < sourceCount; index += 1) {
    const slug = generatePhrase(random, 3)
      .normalize('NFD')
      .replace(/[^a-z ]/g, '')
      .replaceAll(' ', '-');
    const domain = `${random.pick(['news', 'docs', 'wiki', 'journal'])}.example.org`;
    sources.push({
      url: `https://${domain}/articles/${slug}-${index + 1}`,
      title: titleCase(generatePhrase(random, 4)),
      domain,
    });
  }
  // Citations cover fixed-size token spans; the planner drops spans the answer does not reach.
  const citations = sources.map((_, index) => ({
    sourceIndex: index,
    startToken: index * sentenceTokens,
    endToken: (index + 1) * sentenceTokens,
  }));
  return { query: generatePhrase(random, 4), sources, citations, resultTokens: sourceCount * tokensPerResult };
}

function titleCase(phrase: string): string {
  return phrase.replace(/(^|\s)(\S)/g, (_match, space: string, letter: string) => `${space}${letter.toUpperCase()}`);
}
