import type { SearchResult } from '../search-engine.ts';
import { normalizeSearchResults } from '../shared/normalize-search-results.ts';
import type { TavilySearchResponse } from './tavily-api.ts';

/**
 * Tavily's results → SearchResults, in Tavily's relevance order: `content` is the snippet, `raw_content` (when
 * asked for) the content.
 * @see https://docs.tavily.com/api-reference/endpoint/search
 */
export function convertTavilyResponse(body: TavilySearchResponse, input: { maxResults: number }): SearchResult[] {
  const raw = body.results.flatMap((result) =>
    result === null
      ? []
      : [
          {
            url: result.url,
            title: result.title,
            snippet: result.content,
            content: result.raw_content,
            publishedAt: result.published_date,
          },
        ],
  );
  return normalizeSearchResults(raw, input);
}
