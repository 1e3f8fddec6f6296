import type { SearchResult } from '../search-engine.ts';
import { normalizeSearchResults } from '../shared/normalize-search-results.ts';
import type { ExaResult, ExaSearchResponse } from './exa-api.ts';

/**
 * Exa's results → SearchResults: the first highlight (else the text, else the summary) is the snippet; all
 * highlights joined with ` [...] ` (else the text) the content.
 * @see https://exa.ai/docs/reference/search
 */
export function convertExaResponse(body: ExaSearchResponse, input: { maxResults: number }): SearchResult[] {
  const raw = body.results.flatMap((result) =>
    result === null
      ? []
      : [
          {
            url: result.url,
            title: result.title,
            snippet: result.highlights?.[0] ?? result.text ?? result.summary,
            content: joinHighlights(result) ?? result.text,
            publishedAt: result.publishedDate,
          },
        ],
  );
  return normalizeSearchResults(raw, input);
}

function joinHighlights(result: ExaResult): string | undefined {
  const highlights = (result.highlights ?? []).filter((highlight) => highlight.trim() !== '');
  return highlights.length === 0 ? undefined : highlights.join(' [...] ');
}
