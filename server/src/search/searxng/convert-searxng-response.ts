import type { SearchResult } from '../search-engine.ts';
import { normalizeSearchResults } from '../shared/normalize-search-results.ts';
import type { SearxngSearchResponse } from './searxng-api.ts';

/**
 * SearXNG's merged result list → SearchResults, in SearXNG's ranking order. `content` is the backend engine's
 * snippet; SearXNG has no longer page text.
 * @see https://docs.searxng.org/dev/search_api.html
 */
export function convertSearxngResponse(body: SearxngSearchResponse, input: { maxResults: number }): SearchResult[] {
  const raw = body.results.flatMap((result) =>
    result === null
      ? []
      : [{ url: result.url, title: result.title, snippet: result.content, publishedAt: result.publishedDate }],
  );
  return normalizeSearchResults(raw, input);
}
