import type { AnswerPlan } from './plan-answer.ts';
import type { SearchSource } from './plan-web-search.ts';

/** One cited span of the answer text: `[startIndex, endIndex)` in UTF-16 code units, like JavaScript strings. */
export type LocatedCitation = {
  source: SearchSource;
  startToken: number;
  endToken: number;
  startIndex: number;
  endIndex: number;
  citedText: string;
};

export function locateCitations(plan: AnswerPlan): LocatedCitation[] {
  if (!plan.search) return [];
  const text = plan.contentTokens.join('');
  const offsets = [0];
  for (const token of plan.contentTokens) offsets.push((offsets.at(-1) ?? 0) + token.length);
  const sources = plan.search.sources;
  return plan.search.citations.flatMap((span) => {
    const source = sources[span.sourceIndex];
    const tokenStart = offsets[span.startToken];
    const endIndex = offsets[span.endToken];
    if (!source || tokenStart === undefined || endIndex === undefined) return [];
    // A token after the first carries its leading space; the citation starts at the word.
    const startIndex = tokenStart + (plan.contentTokens[span.startToken]?.startsWith(' ') ? 1 : 0);
    return [{ source, ...span, startIndex, endIndex, citedText: text.slice(startIndex, endIndex) }];
  });
}
