import { locateCitations } from '../shared/locate-citations.ts';
import type { AnswerPlan } from '../shared/plan-answer.ts';

/** Chat-style citations, nested under `url_citation`, with `[start, end)` offsets into the content (§1.3). */
export function buildChatAnnotations(plan: AnswerPlan): Record<string, unknown>[] {
  return locateCitations(plan).map((citation) => ({
    type: 'url_citation',
    url_citation: {
      start_index: citation.startIndex,
      end_index: citation.endIndex,
      url: `${citation.source.url}?utm_source=openai`,
      title: citation.source.title,
    },
  }));
}
